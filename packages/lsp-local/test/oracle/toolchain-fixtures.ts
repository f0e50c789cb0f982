// Go and Rust workspaces of the oracle's own, generated into a fresh temp folder by the test (nothing under
// test/fixtures: the conformance fixtures go-basic / rust-basic and other branches' go-work, go-nested and
// rust-workspace are different things). Each is small and has what the corpora lack:
// - oracle-go-modules: three Go modules side by side under a root with no go.mod and no go.work (gopls makes
//   one view per module, and only for modules it has been shown a file of); `app` requires `shapes` through a
//   `replace` to the sibling folder, so references, implementations and callers cross modules; `tools` is an
//   independent module declaring names that clash with `shapes`' (workspace symbols must find both). No
//   network: the only requirement is replaced by a local folder.
// - oracle-rust-workspace: a cargo workspace of three crates — `shapes` (a library with a build script whose
//   generated constant it includes, and a derive from the workspace's own proc-macro crate), `shapes-derive`
//   (the proc macro, no dependencies: it reads the token stream by hand) and `app` (a binary implementing the
//   library's trait). Untrusted, the build script and the proc macro never run, so the answers that depend on
//   them differ from trusted ones — on both sides alike. No registry dependencies.
// Both have a file that is not formatted (formatting proposes edits) and diagnostics of more than one kind.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import type { OracleWorkspace } from './workspaces.js'

export type ToolchainFixtureName = 'oracle-go-modules' | 'oracle-rust-workspace'

function writeTree(
  name: ToolchainFixtureName,
  language: 'go' | 'rust',
  files: Readonly<Record<string, string>>,
  parent = tmpdir(),
): OracleWorkspace {
  const root = realpathSync(mkdtempSync(nodePath.join(parent, `codeseam-${name}-`)))
  for (const [path, text] of Object.entries(files)) {
    const target = nodePath.join(root, path)
    mkdirSync(nodePath.dirname(target), { recursive: true })
    writeFileSync(target, text.startsWith('\n') ? text.slice(1) : text)
  }
  return { name, root, language, remove: () => rmSync(root, { recursive: true, force: true }) }
}

const goModules: Readonly<Record<string, string>> = {
  'shapes/go.mod': `
module example.com/shapes

go 1.22
`,
  'shapes/shape.go': `
// Package shapes measures plane figures.
package shapes

import "example.com/shapes/internal/geom"

// Shape is anything with an area and a name.
type Shape interface {
	Area() float64
	Name() string
}

// Square is a Shape with four equal sides.
type Square struct {
	Side float64
}

// NewSquare returns a square with the given side.
func NewSquare(side float64) Square {
	return Square{Side: side}
}

// Area is the side squared.
func (s Square) Area() float64 {
	return geom.Product(s.Side, s.Side)
}

// Name is "square".
func (s Square) Name() string {
	return "square"
}

// Total adds up the areas of every shape.
func Total(shapes ...Shape) float64 {
	total := 0.0
	for _, shape := range shapes {
		total += shape.Area()
	}
	return total
}
`,
  'shapes/circle.go': `
package shapes

import "math"

// Circle is a Shape given by its radius.
type Circle struct {
	Radius float64
}

// Area is pi r squared.
func (c *Circle) Area() float64 {
	return math.Pi * c.Radius * c.Radius
}

// Name is "circle".
func (c *Circle) Name() string {
	return "circle"
}

// Largest returns the shape with the largest area.
func Largest(shapes []Shape) Shape {
	var best Shape
	for _, shape := range shapes {
		if best == nil || shape.Area() > best.Area() {
			best = shape
		}
	}
	return best
}
`,
  'shapes/internal/geom/geom.go': `
// Package geom holds the arithmetic.
package geom

// Product multiplies two lengths.
func Product(a, b float64) float64 {
	return a * b
}
`,
  'app/go.mod': `
module example.com/app

go 1.22

require example.com/shapes v0.0.0

replace example.com/shapes => ../shapes
`,
  'app/main.go': `
package main

import (
	"fmt"

	"example.com/app/report"
	"example.com/shapes"
)

func main() {
	square := shapes.NewSquare(2)
	circle := &shapes.Circle{Radius: 1}
	fmt.Println(shapes.Total(square, circle))
	fmt.Println(report.Summary([]shapes.Shape{square, circle, report.Triangle{Base: 3, Height: 4}}))
	fmt.Printf("%d shapes\\n", "three")
}
`,
  // Not gofmt-formatted on purpose: formatting proposes edits.
  'app/report/report.go': `
package report

import (
  "strings"
  "example.com/shapes"
)

// Triangle is a Shape of another module.
type Triangle struct { Base, Height float64 }

// Area is half base times height.
func (t Triangle) Area() float64 { return t.Base*t.Height/2 }

// Name is "triangle".
func (t Triangle) Name() string {
return "triangle"
}

// Summary names the largest shape and the total area.
func Summary(list []shapes.Shape) string {
    names := []string{}
    for _, shape := range list { names = append(names, shape.Name()) }
    largest := shapes.Largest(list)
    return strings.Join(names, ", ") + ": largest " + largest.Name()
}
`,
  'tools/go.mod': `
module example.com/tools

go 1.22
`,
  'tools/lint.go': `
// Package tools is a module of its own that knows nothing of shapes.
package tools

// Square is a number times itself (a name shapes has too).
func Square(n int) int {
	return n * n
}

// Total sums numbers (another name shapes has).
func Total(numbers ...int) int {
	sum := 0
	for _, n := range numbers {
		sum += Square(n)
	}
	return sum
}

func unusedLocal() int {
	leftover := 3
	return 4
}
`,
}

const rustWorkspace: Readonly<Record<string, string>> = {
  'Cargo.toml': `
[workspace]
members = ["crates/shapes", "crates/shapes-derive", "crates/app"]
resolver = "2"
`,
  'crates/shapes-derive/Cargo.toml': `
[package]
name = "shapes-derive"
version = "0.1.0"
edition = "2021"

[lib]
proc-macro = true
`,
  'crates/shapes-derive/src/lib.rs': `
//! \`#[derive(Describe)]\`: an impl of \`shapes::Describe\` naming the type.
use proc_macro::{TokenStream, TokenTree};

/// Implements \`Describe\` for the struct or enum it is put on.
#[proc_macro_derive(Describe)]
pub fn derive_describe(input: TokenStream) -> TokenStream {
    let name = type_name(input).expect("a struct or an enum");
    format!("impl crate::Describe for {name} {{ fn describe() -> &'static str {{ \\"{name}\\" }} }}")
        .parse()
        .expect("a valid impl")
}

fn type_name(input: TokenStream) -> Option<String> {
    let mut tokens = input.into_iter();
    while let Some(token) = tokens.next() {
        if let TokenTree::Ident(ident) = &token {
            let word = ident.to_string();
            if word == "struct" || word == "enum" {
                return tokens.next().map(|name| name.to_string());
            }
        }
    }
    None
}
`,
  'crates/shapes/Cargo.toml': `
[package]
name = "shapes"
version = "0.1.0"
edition = "2021"

[dependencies]
shapes-derive = { path = "../shapes-derive" }
`,
  'crates/shapes/build.rs': `
use std::{env, fs, path::Path};

fn main() {
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    fs::write(
        Path::new(&out).join("generated.rs"),
        "/// Written by the build script.\\npub const GENERATED_SIDES: u32 = 4;\\n",
    )
    .expect("OUT_DIR is writable");
}
`,
  'crates/shapes/src/lib.rs': `
//! Plane figures.
pub mod circle;
pub mod square;

pub use shapes_derive::Describe;

include!(concat!(env!("OUT_DIR"), "/generated.rs"));

/// Anything with an area and a name.
pub trait Shape {
    /// The area.
    fn area(&self) -> f64;
    /// A name for people.
    fn name(&self) -> String {
        String::from("shape")
    }
}

/// A type that can say what it is (derived by \`shapes-derive\`).
pub trait Describe {
    /// The type's name.
    fn describe() -> &'static str;
}

/// The sum of the areas.
pub fn total(shapes: &[&dyn Shape]) -> f64 {
    shapes.iter().map(|shape| shape.area()).sum()
}

/// How many sides a square has, as the build script says.
pub fn square_sides() -> u32 {
    GENERATED_SIDES
}
`,
  'crates/shapes/src/square.rs': `
use crate::{Describe, Shape};

/// Four equal sides.
#[derive(Debug, Clone, Describe)]
pub struct Square {
    /// The length of a side.
    pub side: f64,
}

impl Square {
    /// A square with the given side.
    pub fn new(side: f64) -> Self {
        Square { side }
    }

    /// What the derive says it is.
    pub fn kind() -> &'static str {
        Square::describe()
    }
}

impl Shape for Square {
    fn area(&self) -> f64 {
        self.side * self.side
    }

    fn name(&self) -> String {
        String::from("square")
    }
}
`,
  // Not rustfmt-formatted on purpose: formatting proposes edits.
  'crates/shapes/src/circle.rs': `
use crate::Shape;

/// Given by its radius.
#[derive(Debug,Clone,Copy)]
pub struct Circle { pub radius: f64 }

impl Shape for Circle {
  fn area(&self) -> f64 { std::f64::consts::PI*self.radius*self.radius }
}

/// The largest of the circles.
pub fn largest(circles: &[Circle]) -> Option<&Circle> { circles.iter().max_by(|a, b| a.area().total_cmp(&b.area())) }
`,
  'crates/app/Cargo.toml': `
[package]
name = "app"
version = "0.1.0"
edition = "2021"

[dependencies]
shapes = { path = "../shapes" }
`,
  'crates/app/src/main.rs': `
use shapes::circle::{largest, Circle};
use shapes::square::Square;
use shapes::{total, Shape};

mod report;

/// A shape of another crate.
struct Triangle {
    base: f64,
    height: f64,
}

impl Shape for Triangle {
    fn area(&self) -> f64 {
        self.base * self.height / 2.0
    }
}

fn main() {
    let square = Square::new(2.0);
    let circles = [Circle { radius: 1.0 }, Circle { radius: 2.0 }];
    let triangle = Triangle { base: 3.0, height: 4.0 };
    println!("{}", total(&[&square, &circles[0], &triangle]));
    println!("{:?} {}", largest(&circles), Square::kind());
    println!("{}", report::summary(&[&square, &triangle]));
    let sides: u32 = shapes::square_sides();
    let wrong: u32 = "four";
    let unused = sides;
}
`,
  'crates/app/src/report.rs': `
use shapes::Shape;

/// The names of the shapes, and their total area.
pub fn summary(list: &[&dyn Shape]) -> String {
    let names: Vec<String> = list.iter().map(|shape| shape.name()).collect();
    format!("{}: {}", names.join(", "), shapes::total(list))
}
`,
}

/** The multi-module Go fixture (see the file comment), in a fresh temp folder. */
export function writeGoModules(parent?: string): OracleWorkspace {
  return writeTree('oracle-go-modules', 'go', goModules, parent)
}

/** The cargo-workspace Rust fixture (see the file comment), in a fresh temp folder. */
export function writeRustWorkspace(parent?: string): OracleWorkspace {
  return writeTree('oracle-rust-workspace', 'rust', rustWorkspace, parent)
}
