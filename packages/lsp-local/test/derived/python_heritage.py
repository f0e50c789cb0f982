"""The Python type-hierarchy oracle (issue 16): every class's bases read with the `ast` module, stdlib only.

Input (stdin, JSON): {"root": ..., "folders": [workspace folders], "searchPaths": [extra import roots]}.
Output (stdout, JSON): {"declarations": [...], "overrides": [...]}, paths workspace-relative, lines 0-based.

Decisions (the reference the derivation is judged by):
- Files: every .py / .pyi under the root (dot-folders, __pycache__, node_modules and venvs never). Not only
  what a `[tool.pyright] include` names: codeseam opens the workspace's other Python files in the server
  (lsp-local's project loader, issue 13), so its references, hence its subtypes, cover them too. Imports
  resolve from the nearest workspace folder (and its `src`), the extra search paths, then the file's folder.
- Classes: every `class` statement, also nested in classes and functions. Its line is the `class` line.
- A base: Name, Attribute chain, Subscript (its value: `Generic[T]` is `Generic`); keywords (`metaclass=`)
  are not bases. It resolves through the scopes that see it (the enclosing class body for a class nested in
  one, enclosing functions, the module), following imports (absolute, relative with levels, `import a.b as
  m`), package `__init__` re-exports, `from x import *`, and module-level aliases (`Alias = Base`,
  `Alias = Base[int]`); the last binding of a name in source order wins. It resolves to a class defined in a
  workspace file, or else is unresolved and reported by its name as written (`abc.ABC`, `object`, a name
  bound to anything but a class; a call by its callee, call arguments left out: `type(...)` is `type`).
- Subtypes: the inverse relation over the analysed classes.
- Overrides: for a method (the last `def` of its name in a class body) the last `def`s of that name in EVERY
  transitive subclass, whether or not an intermediate class overrides it too; an assigned attribute is none.
"""
import ast
import json
import os
import sys

SKIP = {"node_modules", "__pycache__", "venv", ".venv"}
MAX_DEPTH = 40


def rel(root, path): return os.path.relpath(path, root).replace(os.sep, "/")


def analysed_files(root):
    """Every Python file under the root: pyright's own scope and, beyond it, the loose files codeseam opens."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP and not d.startswith("."))
        found += [os.path.join(dirpath, n) for n in filenames if n.endswith((".py", ".pyi"))]
    return found


def inner_blocks(stmt):
    """The statement lists inside a compound statement that binds in the enclosing scope (if, try, with, match...)."""
    blocks = [getattr(stmt, field, None) or [] for field in ("body", "orelse", "finalbody")]
    blocks += [handler.body for handler in getattr(stmt, "handlers", None) or []]
    return blocks + [case.body for case in getattr(stmt, "cases", None) or []]


class Scope:
    """The names a module, class body or function body binds, in source order."""

    def __init__(self, module, node, parent):
        self.module, self.node, self.parent = module, node, parent
        self.bindings = {}
        self.stars = []
        self.collect(node.body)

    def bind(self, name, binding):
        self.bindings[name] = binding

    def collect(self, body):
        for stmt in body:
            if isinstance(stmt, ast.ClassDef):
                self.bind(stmt.name, ("class", stmt))
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.bind(stmt.name, ("other", stmt))
            elif isinstance(stmt, ast.Import):
                for alias in stmt.names:  # `import a.b` binds `a`; `import a.b as m` binds `m` to a.b
                    name = alias.asname or alias.name.split(".")[0]
                    self.bind(name, ("module", alias.name if alias.asname else name))
            elif isinstance(stmt, ast.ImportFrom):
                for alias in stmt.names:
                    if alias.name == "*":
                        self.stars.append((stmt.module, stmt.level))
                    else:
                        self.bind(alias.asname or alias.name, ("from", stmt.module, stmt.level, alias.name))
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            simple = isinstance(target, ast.Name) and stmt.value is not None
                            self.bind(name.id, ("assign", stmt.value) if simple else ("other", stmt))
            else:
                for block in inner_blocks(stmt):
                    self.collect(block)


class Module:
    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            self.source = f.read().decode("utf8")
        self.tree = ast.parse(self.source, filename=path)
        self.scope = Scope(self, self.tree, None)


class Oracle:
    def __init__(self, root, folders, search_paths):
        self.root = root
        self.folders = sorted(folders, key=len, reverse=True)
        self.search_paths = search_paths
        self.modules = {}
        self.classes = {}  # id(ClassDef) -> info

    def module(self, path):
        if path not in self.modules:
            try:
                self.modules[path] = Module(path)
            except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
                self.modules[path] = None
        return self.modules[path]

    def import_roots(self, importer):
        folder = next((f for f in self.folders if importer == f or importer.startswith(f + os.sep)), self.root)
        roots = [folder] + ([os.path.join(folder, "src")] if os.path.isdir(os.path.join(folder, "src")) else [])
        return roots + self.search_paths + [os.path.dirname(importer)]

    @staticmethod
    def module_file(base, parts):
        """The file of module `parts` under `base` (a stub first), or the package folder of a namespace package."""
        path = os.path.join(base, *parts)
        for candidate in (path + ".pyi", path + ".py", os.path.join(path, "__init__.pyi"), os.path.join(path, "__init__.py")):
            if os.path.isfile(candidate):
                return candidate
        return path if parts and os.path.isdir(path) else None

    def find_module(self, importer, name, level):
        parts = [p for p in (name or "").split(".") if p]
        if level > 0:
            base = os.path.dirname(importer)
            for _ in range(level - 1):
                base = os.path.dirname(base)
            return self.module_file(base, parts) if parts else self.module_file(base, []) or os.path.join(base, "__init__.py")
        for root in self.import_roots(importer):
            found = self.module_file(root, parts)
            if found is not None and os.path.realpath(found).startswith(self.root):
                return found
        return None

    def submodule(self, target, name):
        """A module's attribute that is a submodule of it (a package's file or folder)."""
        folder = target if os.path.isdir(target) else os.path.dirname(target) if os.path.basename(target).startswith("__init__.") else None
        return None if folder is None else self.module_file(folder, [name])

    def module_attribute(self, target, name, depth):
        """`name` looked up in a module file or namespace-package folder."""
        if depth > MAX_DEPTH: return None  # noqa: E701 (a cycle of aliases)
        module = self.module(target) if os.path.isfile(target) else None
        if module is not None and name in module.scope.bindings:
            return self.binding(module.scope, name, module.scope.bindings[name], depth + 1)
        sub = self.submodule(target, name)
        if sub is not None:
            return ("module", sub)
        for star_module, level in module.scope.stars if module is not None else []:
            star = self.find_module(module.path, star_module, level)
            if star is not None and star != target:
                found = self.module_attribute(star, name, depth + 1)
                if found is not None:
                    return found
        return None

    def lookup(self, scope, name, depth):
        first = True
        while scope is not None:
            # A class body's names are seen by its own statements only (the bases of a class nested in it).
            if (first or not isinstance(scope.node, ast.ClassDef)) and name in scope.bindings:
                return self.binding(scope, name, scope.bindings[name], depth + 1)
            first, scope = False, scope.parent
        return None

    def binding(self, scope, name, binding, depth):
        if depth > MAX_DEPTH: return None  # noqa: E701 (a cycle of aliases)
        kind = binding[0]
        importer = scope.module.path
        if kind == "class":
            return ("class", self.class_info(scope, binding[1]))
        if kind == "module":
            found = self.find_module(importer, binding[1], 0)
            return None if found is None else ("module", found)
        if kind == "from":
            _, module, level, attribute = binding
            found = self.find_module(importer, module, level)
            return None if found is None else self.module_attribute(found, attribute, depth + 1)
        if kind == "assign":
            return self.resolve(scope, binding[1], depth + 1)
        return None

    def resolve(self, scope, expr, depth=0):
        if depth > MAX_DEPTH: return None  # noqa: E701 (a cycle of aliases)
        if isinstance(expr, ast.Subscript):
            return self.resolve(scope, expr.value, depth + 1)
        if isinstance(expr, ast.Name):
            return self.lookup(scope, expr.id, depth + 1)
        if isinstance(expr, ast.Attribute):
            owner = self.resolve(scope, expr.value, depth + 1)
            if owner is None:
                return None
            if owner[0] == "module":
                return self.module_attribute(owner[1], expr.attr, depth + 1)
            body = owner[1]["scope"]
            return self.binding(body, expr.attr, body.bindings[expr.attr], depth + 1) if expr.attr in body.bindings else None
        return None

    def class_info(self, parent, node):
        """The class a ClassDef defines (its body a scope of its own), made once."""
        if id(node) not in self.classes:
            module = parent.module
            info = {"node": node, "module": module, "parent": parent, "file": rel(self.root, module.path), "line": node.lineno - 1}
            self.classes[id(node)] = info
            info["scope"] = Scope(module, node, parent)
        return self.classes[id(node)]


def walk_classes(oracle, scope, found):
    """Every class statement under a scope's body, with the scope its bases are evaluated in."""

    def visit(body, parent):
        for stmt in body:
            if isinstance(stmt, ast.ClassDef):
                info = oracle.class_info(parent, stmt)
                found.append(info)
                visit(stmt.body, info["scope"])
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(stmt.body, Scope(parent.module, stmt, parent))
            else:
                for block in inner_blocks(stmt):
                    visit(block, parent)

    visit(scope.node.body, scope)


def key(info): return f"{info['file']}:{info['line']}"


def methods(info):
    """A class body's methods by name: the last `def` of each name (also under `if` in the body)."""
    found = {}

    def visit(body):
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found[stmt.name] = stmt.lineno - 1
            elif not isinstance(stmt, ast.ClassDef):
                for block in inner_blocks(stmt):
                    visit(block)

    visit(info["node"].body)
    return found


def main():
    config = json.load(sys.stdin)
    root = os.path.realpath(config["root"])
    folders = [os.path.realpath(f) for f in config["folders"]]
    oracle = Oracle(root, folders, [os.path.realpath(p) for p in config.get("searchPaths", [])])
    classes = []
    for path in sorted(analysed_files(root)):
        module = oracle.module(path)
        if module is not None:
            walk_classes(oracle, module.scope, classes)
    supertypes, subtypes = {}, {key(info): [] for info in classes}  # subtypes: the inverse relation
    for info in classes:
        bases = []
        for expr in info["node"].bases:
            found = oracle.resolve(info["parent"], expr)
            if found is not None and found[0] == "class":
                bases.append(key(found[1]))
                subtypes.setdefault(key(found[1]), []).append(key(info))
            else:
                written = expr.func if isinstance(expr, ast.Call) else expr
                written = written.value if isinstance(written, ast.Subscript) else written
                bases.append("?" + ast.get_source_segment(info["module"].source, written))
        supertypes[key(info)] = bases
    by_key = {key(info): info for info in classes}
    declarations = [  # every class
        {"key": key(info), "file": info["file"], "line": info["line"], "name": info["node"].name, "kind": "class",
         "supertypes": sorted(set(supertypes[key(info)])), "subtypes": sorted(set(subtypes[key(info)]))}
        for info in classes
    ]
    overrides = []
    for info in classes:
        below, queue = [], list(subtypes[key(info)])
        while queue:
            sub = queue.pop(0)
            if sub not in below:
                below.append(sub)
                queue += subtypes.get(sub, [])
        for name, line in sorted(methods(info).items(), key=lambda item: item[1]):
            overriders = [f"{by_key[sub]['file']}:{methods(by_key[sub])[name]}" for sub in below if sub in by_key and name in methods(by_key[sub])]
            if overriders:
                overrides.append({"key": f"{info['file']}:{line}", "file": info["file"], "line": line,
                                  "name": f"{info['node'].name}.{name}", "method": name, "overriders": sorted(set(overriders))})
    json.dump({"declarations": declarations, "overrides": overrides}, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
