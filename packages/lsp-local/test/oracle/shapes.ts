// Fixture generators for the layouts people actually have (issue 13): the three standard generator shapes
// — `npm create vite` (react-ts), `ng new` (Angular 20), an Nx workspace with a library and a root
// tsconfig.base.json — each with its tests excluded from the build config, plus a plain JavaScript folder
// with no config at all. Config files mirror what the generators write (comments included: tsconfig is
// JSONC). No node_modules: imports of external packages stay unresolved, and no symbol the oracle checks
// comes from one.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

export type ShapeName = 'vite' | 'angular' | 'nx' | 'plain-js'

export interface GeneratedWorkspace {
  readonly name: ShapeName
  /** Canonical (realpath) root of the fresh temp folder. */
  readonly root: string
  readonly remove: () => void
}

/** Writes `files` (relative path → text) into a fresh temp folder. */
function writeTree(name: ShapeName, files: Readonly<Record<string, string>>, parent = tmpdir()): GeneratedWorkspace {
  const root = realpathSync(mkdtempSync(nodePath.join(parent, `codeseam-oracle-${name}-`)))
  for (const [path, text] of Object.entries(files)) {
    const target = nodePath.join(root, path)
    mkdirSync(nodePath.dirname(target), { recursive: true })
    writeFileSync(target, text.startsWith('\n') ? text.slice(1) : text)
  }
  return { name, root, remove: () => rmSync(root, { recursive: true, force: true }) }
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

// ---------------------------------------------------------------------------------------------------------
// Vite (create-vite template-react-ts): root tsconfig.json with `files: []` + references to
// tsconfig.app.json (src) and tsconfig.node.json (vite.config.ts). Vitest tests live next to the code and are
// excluded from tsconfig.app.json, so no config claims them (the editor serves them from inferred projects).

const viteCompilerOptions = `
    "target": "ES2022",
    "useDefineForClassFields": true,
    "lib": ["ES2022", "DOM", "DOM.Iterable"],
    "module": "ESNext",
    "types": ["vite/client"],
    "skipLibCheck": true,

    /* Bundler mode */
    "moduleResolution": "bundler",
    "allowImportingTsExtensions": true,
    "verbatimModuleSyntax": true,
    "moduleDetection": "force",
    "noEmit": true,
    "jsx": "react-jsx",

    /* Linting */
    "strict": true,
    "noUnusedLocals": true,
    "noUnusedParameters": true,
    "erasableSyntaxOnly": true,
    "noFallthroughCasesInSwitch": true,
    "noUncheckedSideEffectImports": true`

export const viteFiles: Readonly<Record<string, string>> = {
  'package.json': json({
    name: 'shop-front',
    private: true,
    version: '0.0.0',
    type: 'module',
    scripts: { dev: 'vite', build: 'tsc -b && vite build', lint: 'eslint .', preview: 'vite preview', test: 'vitest' },
    dependencies: { react: '^19.1.0', 'react-dom': '^19.1.0' },
    devDependencies: {
      '@types/react': '^19.1.2',
      '@types/react-dom': '^19.1.2',
      '@vitejs/plugin-react': '^4.4.1',
      typescript: '~5.8.3',
      vite: '^6.3.5',
      vitest: '^3.1.3',
    },
  }),
  'index.html': `
<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Vite + React + TS</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`,
  'tsconfig.json': `
{
  "files": [],
  "references": [
    { "path": "./tsconfig.app.json" },
    { "path": "./tsconfig.node.json" }
  ]
}
`,
  'tsconfig.app.json': `
{
  "compilerOptions": {
    "tsBuildInfoFile": "./node_modules/.tmp/tsconfig.app.tsbuildinfo",${viteCompilerOptions}
  },
  "include": ["src"],
  "exclude": ["src/**/*.test.ts", "src/**/*.test.tsx"]
}
`,
  'tsconfig.node.json': `
{
  "compilerOptions": {
    "tsBuildInfoFile": "./node_modules/.tmp/tsconfig.node.tsbuildinfo",
    "target": "ES2023",
    "lib": ["ES2023"],
    "module": "ESNext",
    "types": ["node"],
    "skipLibCheck": true,

    /* Bundler mode */
    "moduleResolution": "bundler",
    "allowImportingTsExtensions": true,
    "verbatimModuleSyntax": true,
    "moduleDetection": "force",
    "noEmit": true,

    /* Linting */
    "strict": true,
    "noUnusedLocals": true,
    "noUnusedParameters": true,
    "erasableSyntaxOnly": true,
    "noFallthroughCasesInSwitch": true,
    "noUncheckedSideEffectImports": true
  },
  "include": ["vite.config.ts"]
}
`,
  'vite.config.ts': `
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// https://vite.dev/config/
export default defineConfig({
  plugins: [react()],
  test: { environment: 'jsdom' },
})
`,
  'src/vite-env.d.ts': `
/// <reference types="vite/client" />
`,
  'src/main.tsx': `
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import App from './App.tsx'
import { StaticCatalog } from './lib/catalog.ts'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App catalog={new StaticCatalog({ 'tea-01': 450, 'mug-02': 1200 })} />
  </StrictMode>,
)
`,
  'src/App.tsx': `
import { useCart } from './hooks/useCart.ts'
import { ProductList } from './components/ProductList.tsx'
import { formatPrice } from './lib/money.ts'
import type { PriceSource } from './lib/catalog.ts'

export default function App({ catalog }: { catalog: PriceSource }) {
  const cart = useCart(catalog)
  return (
    <main>
      <h1>Shop</h1>
      <ProductList catalog={catalog} skus={['tea-01', 'mug-02']} onAdd={(sku) => cart.add(sku, 1)} />
      <p>Total: {formatPrice(cart.total())}</p>
    </main>
  )
}
`,
  'src/lib/money.ts': `
export type Currency = 'EUR' | 'USD'

export const TAX_RATE = 0.2

/** Cents with the tax added, rounded to a whole cent. */
export function addTax(cents: number, rate: number = TAX_RATE): number {
  return Math.round(cents * (1 + rate))
}

export function formatPrice(cents: number, currency: Currency = 'EUR'): string {
  const symbol = currency === 'EUR' ? '€' : '$'
  return \`\${symbol}\${(cents / 100).toFixed(2)}\`
}

export function formatWithTax(cents: number, currency: Currency = 'EUR'): string {
  return formatPrice(addTax(cents), currency)
}
`,
  'src/lib/catalog.ts': `
/** Anything that knows what a product costs, in cents. */
export interface PriceSource {
  priceOf(sku: string): number
  has(sku: string): boolean
}

export class StaticCatalog implements PriceSource {
  constructor(private readonly prices: Record<string, number>) {}

  priceOf(sku: string): number {
    const price = this.prices[sku]
    if (price === undefined) throw new UnknownProductError(sku)
    return price
  }

  has(sku: string): boolean {
    return sku in this.prices
  }
}

export class DiscountCatalog implements PriceSource {
  constructor(private readonly inner: PriceSource, private readonly percent: number) {}

  priceOf(sku: string): number {
    return Math.round(this.inner.priceOf(sku) * (1 - this.percent / 100))
  }

  has(sku: string): boolean {
    return this.inner.has(sku)
  }
}

export class UnknownProductError extends Error {
  constructor(readonly sku: string) {
    super(\`unknown product \${sku}\`)
  }
}
`,
  'src/lib/cart.ts': `
import type { PriceSource } from './catalog.ts'
import { addTax } from './money.ts'

export interface CartLine {
  readonly sku: string
  readonly quantity: number
}

export class Cart {
  private lines: CartLine[] = []

  constructor(private readonly catalog: PriceSource) {}

  add(sku: string, quantity: number): void {
    const existing = this.lines.find((line) => line.sku === sku)
    this.lines = existing === undefined
      ? [...this.lines, { sku, quantity }]
      : this.lines.map((line) => (line.sku === sku ? { sku, quantity: line.quantity + quantity } : line))
  }

  subtotal(): number {
    return this.lines.reduce((sum, line) => sum + lineTotal(this.catalog, line), 0)
  }

  total(): number {
    return addTax(this.subtotal())
  }

  items(): ReadonlyArray<CartLine> {
    return this.lines
  }
}

export function lineTotal(catalog: PriceSource, line: CartLine): number {
  return catalog.priceOf(line.sku) * line.quantity
}

export function emptyCart(catalog: PriceSource): Cart {
  return new Cart(catalog)
}
`,
  'src/hooks/useCart.ts': `
import { useState } from 'react'
import { Cart, emptyCart } from '../lib/cart.ts'
import type { PriceSource } from '../lib/catalog.ts'

export function useCart(catalog: PriceSource): Cart {
  const [cart] = useState(() => emptyCart(catalog))
  return cart
}
`,
  'src/components/ProductList.tsx': `
import type { PriceSource } from '../lib/catalog.ts'
import { formatWithTax } from '../lib/money.ts'

export interface ProductListProps {
  catalog: PriceSource
  skus: ReadonlyArray<string>
  onAdd: (sku: string) => void
}

export function ProductList({ catalog, skus, onAdd }: ProductListProps) {
  return (
    <ul>
      {skus.filter((sku) => catalog.has(sku)).map((sku) => (
        <li key={sku}>
          {sku}: {formatWithTax(catalog.priceOf(sku))}
          <button onClick={() => onAdd(sku)}>Add</button>
        </li>
      ))}
    </ul>
  )
}
`,
  'src/lib/money.test.ts': `
import { describe, expect, it } from 'vitest'
import { TAX_RATE, addTax, formatPrice, formatWithTax } from './money.ts'

describe('money', () => {
  it('adds the tax', () => {
    expect(addTax(1000)).toBe(1000 * (1 + TAX_RATE))
    expect(addTax(1000, 0)).toBe(1000)
  })

  it('formats prices', () => {
    expect(formatPrice(450)).toBe('€4.50')
    expect(formatPrice(450, 'USD')).toBe('$4.50')
    expect(formatWithTax(1000)).toBe(formatPrice(addTax(1000)))
  })
})
`,
  'src/lib/cart.test.ts': `
import { describe, expect, it } from 'vitest'
import { Cart, emptyCart, lineTotal } from './cart.ts'
import { DiscountCatalog, StaticCatalog, UnknownProductError } from './catalog.ts'
import { addTax } from './money.ts'

const catalog = new StaticCatalog({ a: 100, b: 250 })

describe('Cart', () => {
  it('sums its lines with tax', () => {
    const cart = new Cart(catalog)
    cart.add('a', 2)
    cart.add('b', 1)
    cart.add('a', 1)
    expect(cart.subtotal()).toBe(550)
    expect(cart.total()).toBe(addTax(550))
    expect(cart.items()).toHaveLength(2)
  })

  it('prices lines through any catalog', () => {
    expect(lineTotal(new DiscountCatalog(catalog, 10), { sku: 'a', quantity: 3 })).toBe(270)
    expect(emptyCart(catalog).total()).toBe(0)
  })

  it('rejects unknown products', () => {
    const cart = emptyCart(catalog)
    cart.add('zzz', 1)
    expect(() => cart.subtotal()).toThrow(UnknownProductError)
  })
})
`,
  'src/components/ProductList.test.tsx': `
import { describe, expect, it } from 'vitest'
import { ProductList } from './ProductList.tsx'
import { StaticCatalog } from '../lib/catalog.ts'
import { formatWithTax } from '../lib/money.ts'

describe('ProductList', () => {
  it('lists only known products', () => {
    const catalog = new StaticCatalog({ a: 100 })
    const element = ProductList({ catalog, skus: ['a', 'missing'], onAdd: () => {} })
    expect(element).toBeTruthy()
    expect(formatWithTax(catalog.priceOf('a'))).toContain('1.20')
  })
})
`,
}

export function writeViteApp(parent?: string): GeneratedWorkspace {
  return writeTree('vite', viteFiles, parent)
}

// ---------------------------------------------------------------------------------------------------------
// Angular (ng new, v20): tsconfig.json holds the compiler options, `files: []` and references to
// tsconfig.app.json (src/**/*.ts minus specs) and tsconfig.spec.json (the specs), both extending it.

export const angularFiles: Readonly<Record<string, string>> = {
  'package.json': json({
    name: 'task-board',
    version: '0.0.0',
    scripts: { ng: 'ng', start: 'ng serve', build: 'ng build', test: 'ng test' },
    private: true,
    dependencies: {
      '@angular/common': '^20.0.0',
      '@angular/core': '^20.0.0',
      '@angular/platform-browser': '^20.0.0',
      rxjs: '~7.8.0',
      tslib: '^2.3.0',
    },
    devDependencies: {
      '@angular/build': '^20.0.0',
      '@angular/cli': '^20.0.0',
      '@types/jasmine': '~5.1.0',
      jasmine: '~5.7.0',
      typescript: '~5.8.2',
    },
  }),
  'angular.json': json({
    $schema: './node_modules/@angular/cli/lib/config/schema.json',
    version: 1,
    newProjectRoot: 'projects',
    projects: {
      'task-board': {
        projectType: 'application',
        root: '',
        sourceRoot: 'src',
        prefix: 'app',
        architect: {
          build: { builder: '@angular/build:application', options: { browser: 'src/main.ts', tsConfig: 'tsconfig.app.json' } },
          test: { builder: '@angular/build:karma', options: { tsConfig: 'tsconfig.spec.json' } },
        },
      },
    },
  }),
  'tsconfig.json': `
/* To learn more about Typescript configuration file: https://www.typescriptlang.org/docs/handbook/tsconfig-json.html. */
/* To learn more about Angular compiler options: https://angular.dev/reference/configs/angular-compiler-options. */
{
  "compileOnSave": false,
  "compilerOptions": {
    "strict": true,
    "noImplicitOverride": true,
    "noPropertyAccessFromIndexSignature": true,
    "noImplicitReturns": true,
    "noFallthroughCasesInSwitch": true,
    "skipLibCheck": true,
    "isolatedModules": true,
    "experimentalDecorators": true,
    "importHelpers": true,
    "target": "ES2022",
    "module": "preserve"
  },
  "angularCompilerOptions": {
    "enableI18nLegacyMessageIdFormat": false,
    "strictInjectionParameters": true,
    "strictInputAccessModifiers": true,
    "typeCheckHostBindings": true,
    "strictTemplates": true
  },
  "files": [],
  "references": [
    {
      "path": "./tsconfig.app.json"
    },
    {
      "path": "./tsconfig.spec.json"
    }
  ]
}
`,
  'tsconfig.app.json': `
/* To learn more about Typescript configuration file: https://www.typescriptlang.org/docs/handbook/tsconfig-json.html. */
/* To learn more about Angular compiler options: https://angular.dev/reference/configs/angular-compiler-options. */
{
  "extends": "./tsconfig.json",
  "compilerOptions": {
    "outDir": "./out-tsc/app",
    "types": []
  },
  "include": [
    "src/**/*.ts"
  ],
  "exclude": [
    "src/**/*.spec.ts"
  ]
}
`,
  'tsconfig.spec.json': `
/* To learn more about Typescript configuration file: https://www.typescriptlang.org/docs/handbook/tsconfig-json.html. */
/* To learn more about Angular compiler options: https://angular.dev/reference/configs/angular-compiler-options. */
{
  "extends": "./tsconfig.json",
  "compilerOptions": {
    "outDir": "./out-tsc/spec",
    "types": [
      "jasmine"
    ]
  },
  "include": [
    "src/**/*.spec.ts",
    "src/**/*.d.ts"
  ]
}
`,
  'src/main.ts': `
import { bootstrapApplication } from '@angular/platform-browser'
import { appConfig } from './app/app.config'
import { App } from './app/app'

bootstrapApplication(App, appConfig).catch((err) => console.error(err))
`,
  'src/app/app.config.ts': `
import { ApplicationConfig, provideZonelessChangeDetection } from '@angular/core'
import { MemoryTaskStore, TASK_STORE } from './tasks/task-store'

export const appConfig: ApplicationConfig = {
  providers: [provideZonelessChangeDetection(), { provide: TASK_STORE, useValue: new MemoryTaskStore() }],
}
`,
  'src/app/app.ts': `
import { Component, inject } from '@angular/core'
import { TaskList } from './tasks/task-list'
import { TaskService } from './tasks/task.service'

@Component({
  selector: 'app-root',
  imports: [TaskList],
  template: '<h1>{{ title }}</h1><app-task-list [tasks]="service.pending()" />',
})
export class App {
  protected readonly title = 'task-board'
  protected readonly service = inject(TaskService)
}
`,
  'src/app/tasks/task.ts': `
export type Priority = 'low' | 'normal' | 'urgent'

export interface Task {
  readonly id: number
  readonly title: string
  readonly due: Date
  readonly priority: Priority
  readonly done: boolean
}

export function createTask(id: number, title: string, due: Date, priority: Priority = 'normal'): Task {
  return { id, title, due, priority, done: false }
}
`,
  'src/app/tasks/task-store.ts': `
import { InjectionToken } from '@angular/core'
import type { Task } from './task'

/** Where tasks live. */
export interface TaskStore {
  load(): Task[]
  save(tasks: ReadonlyArray<Task>): void
}

export const TASK_STORE = new InjectionToken<TaskStore>('TASK_STORE')

export class MemoryTaskStore implements TaskStore {
  private tasks: Task[] = []

  load(): Task[] {
    return [...this.tasks]
  }

  save(tasks: ReadonlyArray<Task>): void {
    this.tasks = [...tasks]
  }
}

export class LocalStorageTaskStore implements TaskStore {
  constructor(private readonly key = 'tasks') {}

  load(): Task[] {
    const raw = localStorage.getItem(this.key)
    return raw === null ? [] : (JSON.parse(raw) as Task[])
  }

  save(tasks: ReadonlyArray<Task>): void {
    localStorage.setItem(this.key, JSON.stringify(tasks))
  }
}
`,
  'src/app/tasks/dates.ts': `
const dayMs = 24 * 60 * 60 * 1000

export function daysBetween(from: Date, to: Date): number {
  return Math.floor((to.getTime() - from.getTime()) / dayMs)
}

export function isOverdue(due: Date, now: Date): boolean {
  return daysBetween(due, now) > 0
}

export function formatDue(due: Date, now: Date): string {
  const days = daysBetween(now, due)
  if (isOverdue(due, now)) return \`\${-days} days late\`
  return days === 0 ? 'today' : \`in \${days} days\`
}
`,
  'src/app/tasks/task.service.ts': `
import { Injectable, inject } from '@angular/core'
import { createTask, type Priority, type Task } from './task'
import { TASK_STORE, type TaskStore } from './task-store'
import { isOverdue } from './dates'

@Injectable({ providedIn: 'root' })
export class TaskService {
  private readonly store: TaskStore = inject(TASK_STORE)
  private nextId = 1

  add(title: string, due: Date, priority: Priority = 'normal'): Task {
    const task = createTask(this.nextId++, title, due, priority)
    this.store.save([...this.store.load(), task])
    return task
  }

  complete(id: number): void {
    this.store.save(this.store.load().map((task) => (task.id === id ? { ...task, done: true } : task)))
  }

  pending(): Task[] {
    return this.store.load().filter((task) => !task.done)
  }

  overdue(now: Date): Task[] {
    return this.pending().filter((task) => isOverdue(task.due, now))
  }
}
`,
  'src/app/tasks/task-list.ts': `
import { Component, input } from '@angular/core'
import type { Task } from './task'
import { formatDue } from './dates'

@Component({
  selector: 'app-task-list',
  template: '@for (task of tasks(); track task.id) { <li>{{ task.title }} — {{ due(task) }}</li> }',
})
export class TaskList {
  readonly tasks = input<Task[]>([])

  due(task: Task): string {
    return formatDue(task.due, new Date())
  }
}
`,
  'src/app/tasks/task.service.spec.ts': `
import { TestBed } from '@angular/core/testing'
import { TaskService } from './task.service'
import { MemoryTaskStore, TASK_STORE } from './task-store'
import { createTask } from './task'

describe('TaskService', () => {
  let service: TaskService

  beforeEach(() => {
    TestBed.configureTestingModule({ providers: [{ provide: TASK_STORE, useValue: new MemoryTaskStore() }] })
    service = TestBed.inject(TaskService)
  })

  it('adds and completes tasks', () => {
    const task = service.add('write tests', new Date(2030, 0, 1))
    expect(service.pending()).toEqual([task])
    service.complete(task.id)
    expect(service.pending()).toEqual([])
  })

  it('lists overdue tasks', () => {
    service.add('late', new Date(2000, 0, 1), 'urgent')
    expect(service.overdue(new Date(2001, 0, 1)).length).toBe(1)
    expect(createTask(9, 'x', new Date()).done).toBe(false)
  })
})
`,
  'src/app/tasks/task-store.spec.ts': `
import { LocalStorageTaskStore, MemoryTaskStore, type TaskStore } from './task-store'
import { createTask } from './task'

function roundTrip(store: TaskStore): void {
  const tasks = [createTask(1, 'a', new Date(0))]
  store.save(tasks)
  expect(store.load().length).toBe(1)
}

describe('task stores', () => {
  it('memory store keeps tasks', () => roundTrip(new MemoryTaskStore()))
  it('local storage store keeps tasks', () => roundTrip(new LocalStorageTaskStore('spec')))
})
`,
  'src/app/tasks/dates.spec.ts': `
import { daysBetween, formatDue, isOverdue } from './dates'

describe('dates', () => {
  const now = new Date(2030, 5, 10)

  it('counts days', () => {
    expect(daysBetween(new Date(2030, 5, 1), now)).toBe(9)
  })

  it('knows what is overdue', () => {
    expect(isOverdue(new Date(2030, 5, 1), now)).toBeTrue()
    expect(formatDue(new Date(2030, 5, 12), now)).toBe('in 2 days')
  })
})
`,
}

export function writeAngularApp(parent?: string): GeneratedWorkspace {
  return writeTree('angular', angularFiles, parent)
}

// ---------------------------------------------------------------------------------------------------------
// Nx (integrated, @nx/js library generator): tsconfig.base.json at the root with the path alias (without the
// `baseUrl: "."` older Nx versions add: TypeScript 7 removed it; paths resolve from the config's folder); each project
// has a tsconfig.json with `files: []`, `include: []` and references to tsconfig.lib.json / tsconfig.app.json
// (specs and tests excluded) and tsconfig.spec.json (specs and tests only).

const nxProjectTsconfig = `
{
  "extends": "../../tsconfig.base.json",
  "compilerOptions": {
    "module": "commonjs",
    "forceConsistentCasingInFileNames": true,
    "strict": true,
    "importHelpers": true,
    "noImplicitOverride": true,
    "noImplicitReturns": true,
    "noFallthroughCasesInSwitch": true,
    "noPropertyAccessFromIndexSignature": true
  },
  "files": [],
  "include": [],
  "references": [
    {
      "path": "./tsconfig.BUILD.json"
    },
    {
      "path": "./tsconfig.spec.json"
    }
  ]
}
`

const nxSpecTsconfig = `
{
  "extends": "./tsconfig.json",
  "compilerOptions": {
    "outDir": "../../dist/out-tsc",
    "module": "commonjs",
    "moduleResolution": "node10",
    "types": ["jest", "node"]
  },
  "include": ["jest.config.ts", "src/**/*.test.ts", "src/**/*.spec.ts", "src/**/*.d.ts"]
}
`

const nxJestConfig = (name: string, offset: string) => `
export default {
  displayName: '${name}',
  preset: '${offset}jest.preset.js',
  testEnvironment: 'node',
  transform: {
    '^.+\\\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
  moduleFileExtensions: ['ts', 'js', 'html'],
  coverageDirectory: '${offset}coverage/libs/${name}',
}
`

export const nxFiles: Readonly<Record<string, string>> = {
  'package.json': json({
    name: '@acme/source',
    version: '0.0.0',
    license: 'MIT',
    private: true,
    devDependencies: {
      '@nx/jest': '21.1.0',
      '@nx/js': '21.1.0',
      '@types/jest': '^29.5.12',
      '@types/node': '18.16.9',
      jest: '^29.7.0',
      nx: '21.1.0',
      'ts-jest': '^29.1.0',
      tslib: '^2.3.0',
      typescript: '~5.7.2',
    },
  }),
  'nx.json': json({
    $schema: './node_modules/nx/schemas/nx-schema.json',
    namedInputs: {
      default: ['{projectRoot}/**/*', 'sharedGlobals'],
      production: ['default', '!{projectRoot}/**/?(*.)+(spec|test).[jt]s?(x)?(.snap)', '!{projectRoot}/tsconfig.spec.json'],
      sharedGlobals: [],
    },
    plugins: [
      {
        plugin: '@nx/js/typescript',
        options: { typecheck: { targetName: 'typecheck' }, build: { targetName: 'build', configName: 'tsconfig.lib.json' } },
      },
    ],
  }),
  'jest.preset.js': `
const nxPreset = require('@nx/jest/preset').default;

module.exports = { ...nxPreset };
`,
  'tsconfig.base.json': `
{
  "compileOnSave": false,
  "compilerOptions": {
    "rootDir": ".",
    "sourceMap": true,
    "declaration": false,
    "moduleResolution": "node",
    "emitDecoratorMetadata": true,
    "experimentalDecorators": true,
    "importHelpers": true,
    "target": "es2015",
    "module": "esnext",
    "lib": ["es2020", "dom"],
    "skipLibCheck": true,
    "skipDefaultLibCheck": true,
    "paths": {
      "@acme/inventory": ["libs/inventory/src/index.ts"]
    }
  },
  "exclude": ["node_modules", "tmp"]
}
`,
  'libs/inventory/project.json': json({
    name: 'inventory',
    $schema: '../../node_modules/nx/schemas/project-schema.json',
    sourceRoot: 'libs/inventory/src',
    projectType: 'library',
    tags: [],
    targets: {
      test: {
        executor: '@nx/jest:jest',
        outputs: ['{workspaceRoot}/coverage/{projectRoot}'],
        options: { jestConfig: 'libs/inventory/jest.config.ts' },
      },
    },
  }),
  'libs/inventory/tsconfig.json': nxProjectTsconfig.replace('BUILD', 'lib'),
  'libs/inventory/tsconfig.lib.json': `
{
  "extends": "./tsconfig.json",
  "compilerOptions": {
    "outDir": "../../dist/out-tsc",
    "declaration": true,
    "types": ["node"]
  },
  "include": ["src/**/*.ts"],
  "exclude": ["jest.config.ts", "src/**/*.spec.ts", "src/**/*.test.ts"]
}
`,
  'libs/inventory/tsconfig.spec.json': nxSpecTsconfig,
  'libs/inventory/jest.config.ts': nxJestConfig('inventory', '../../'),
  'libs/inventory/src/index.ts': `
export * from './lib/units';
export * from './lib/stock';
export * from './lib/warehouse';
`,
  'libs/inventory/src/lib/units.ts': `
export type Unit = 'piece' | 'box' | 'pallet';

export const PIECES_PER: Record<Unit, number> = { piece: 1, box: 12, pallet: 480 };

export function toPieces(quantity: number, unit: Unit): number {
  return quantity * PIECES_PER[unit];
}

export function fromPieces(pieces: number, unit: Unit): number {
  return Math.floor(pieces / PIECES_PER[unit]);
}
`,
  'libs/inventory/src/lib/stock.ts': `
import { toPieces, type Unit } from './units';

export interface StockItem {
  readonly sku: string;
  readonly pieces: number;
}

export class StockLevel {
  private readonly pieces = new Map<string, number>();

  receive(sku: string, quantity: number, unit: Unit = 'piece'): void {
    this.pieces.set(sku, this.count(sku) + toPieces(quantity, unit));
  }

  take(sku: string, quantity: number, unit: Unit = 'piece'): void {
    const wanted = toPieces(quantity, unit);
    if (wanted > this.count(sku)) throw new OutOfStockError(sku, wanted, this.count(sku));
    this.pieces.set(sku, this.count(sku) - wanted);
  }

  count(sku: string): number {
    return this.pieces.get(sku) ?? 0;
  }

  items(): StockItem[] {
    return [...this.pieces].map(([sku, pieces]) => ({ sku, pieces }));
  }
}

export class OutOfStockError extends Error {
  constructor(readonly sku: string, readonly wanted: number, readonly available: number) {
    super(\`\${sku}: wanted \${wanted}, \${available} available\`);
  }
}
`,
  'libs/inventory/src/lib/warehouse.ts': `
import { StockLevel, type StockItem } from './stock';
import { fromPieces, type Unit } from './units';

/** Decides when an item must be reordered. */
export interface ReorderPolicy {
  needsReorder(item: StockItem): boolean;
}

export class MinimumLevelPolicy implements ReorderPolicy {
  constructor(private readonly minimum: number) {}

  needsReorder(item: StockItem): boolean {
    return item.pieces < this.minimum;
  }
}

export class NeverReorder implements ReorderPolicy {
  needsReorder(): boolean {
    return false;
  }
}

export class Warehouse {
  readonly stock = new StockLevel();

  constructor(readonly name: string, private readonly policy: ReorderPolicy) {}

  reorderList(): StockItem[] {
    return this.stock.items().filter((item) => this.policy.needsReorder(item));
  }

  boxesOf(sku: string, unit: Unit = 'box'): number {
    return fromPieces(this.stock.count(sku), unit);
  }
}

export function openWarehouse(name: string, minimum: number): Warehouse {
  return new Warehouse(name, new MinimumLevelPolicy(minimum));
}
`,
  'libs/inventory/src/lib/stock.spec.ts': `
import { OutOfStockError, StockLevel } from './stock';
import { toPieces } from './units';

describe('StockLevel', () => {
  it('receives and takes in any unit', () => {
    const stock = new StockLevel();
    stock.receive('tea', 2, 'box');
    stock.take('tea', 5);
    expect(stock.count('tea')).toBe(toPieces(2, 'box') - 5);
  });

  it('refuses to go below zero', () => {
    const stock = new StockLevel();
    expect(() => stock.take('tea', 1)).toThrow(OutOfStockError);
  });
});
`,
  'libs/inventory/src/lib/warehouse.spec.ts': `
import { MinimumLevelPolicy, NeverReorder, Warehouse, openWarehouse } from './warehouse';

describe('Warehouse', () => {
  it('lists what to reorder', () => {
    const warehouse = openWarehouse('north', 10);
    warehouse.stock.receive('tea', 5);
    warehouse.stock.receive('mug', 1, 'box');
    expect(warehouse.reorderList().map((item) => item.sku)).toEqual(['tea']);
  });

  it('counts boxes', () => {
    const warehouse = new Warehouse('south', new NeverReorder());
    warehouse.stock.receive('mug', 30);
    expect(warehouse.boxesOf('mug')).toBe(2);
    expect(new MinimumLevelPolicy(1).needsReorder({ sku: 'x', pieces: 0 })).toBe(true);
  });
});
`,
  'libs/inventory/src/lib/units.test.ts': `
import { PIECES_PER, fromPieces, toPieces } from './units';

test('units round-trip', () => {
  expect(fromPieces(toPieces(3, 'pallet'), 'pallet')).toBe(3);
  expect(PIECES_PER.box).toBe(12);
});
`,
  'apps/restock/project.json': json({
    name: 'restock',
    $schema: '../../node_modules/nx/schemas/project-schema.json',
    sourceRoot: 'apps/restock/src',
    projectType: 'application',
    tags: [],
    targets: {
      build: { executor: '@nx/js:tsc', options: { main: 'apps/restock/src/main.ts', tsConfig: 'apps/restock/tsconfig.app.json' } },
    },
  }),
  'apps/restock/tsconfig.json': nxProjectTsconfig.replace('BUILD', 'app'),
  'apps/restock/tsconfig.app.json': `
{
  "extends": "./tsconfig.json",
  "compilerOptions": {
    "outDir": "../../dist/out-tsc",
    "types": ["node"]
  },
  "include": ["src/**/*.ts"],
  "exclude": ["jest.config.ts", "src/**/*.spec.ts", "src/**/*.test.ts"]
}
`,
  'apps/restock/tsconfig.spec.json': nxSpecTsconfig,
  'apps/restock/jest.config.ts': nxJestConfig('restock', '../../'),
  'apps/restock/src/main.ts': `
import { openWarehouse } from '@acme/inventory';
import { planRestock, printPlan } from './app/plan';

const warehouse = openWarehouse('main', 24);
warehouse.stock.receive('tea', 1, 'box');
printPlan(planRestock(warehouse));
`,
  'apps/restock/src/app/plan.ts': `
import { type StockItem, type Warehouse, toPieces } from '@acme/inventory';

export interface RestockLine {
  readonly sku: string;
  readonly order: number;
}

export function planRestock(warehouse: Warehouse): RestockLine[] {
  return warehouse.reorderList().map((item: StockItem) => ({ sku: item.sku, order: toPieces(1, 'box') - item.pieces }));
}

export function printPlan(lines: ReadonlyArray<RestockLine>): void {
  for (const line of lines) console.log(\`\${line.sku}: order \${line.order}\`);
}
`,
  'apps/restock/src/app/plan.spec.ts': `
import { StockLevel, Warehouse, MinimumLevelPolicy, openWarehouse } from '@acme/inventory';
import { planRestock } from './plan';

describe('planRestock', () => {
  it('orders up to one box', () => {
    const warehouse = openWarehouse('t', 12);
    warehouse.stock.receive('tea', 4);
    expect(planRestock(warehouse)).toEqual([{ sku: 'tea', order: 8 }]);
  });

  it('orders nothing when stocked', () => {
    const warehouse = new Warehouse('t', new MinimumLevelPolicy(0));
    expect(planRestock(warehouse)).toEqual([]);
    expect(new StockLevel().items()).toEqual([]);
  });
});
`,
}

export function writeNxWorkspace(parent?: string): GeneratedWorkspace {
  return writeTree('nx', nxFiles, parent)
}

// ---------------------------------------------------------------------------------------------------------
// A plain JavaScript folder: ES modules with JSDoc, a CommonJS script, tests — no tsconfig, no jsconfig.

export const plainJavaScriptFiles: Readonly<Record<string, string>> = {
  'README.md': '# notes\n\nA small note-taking library in plain JavaScript.\n',
  'src/note.js': `
/**
 * @typedef {object} NoteData
 * @property {string} title
 * @property {string} body
 * @property {string[]} tags
 */

export class Note {
  /** @param {NoteData} data */
  constructor(data) {
    this.title = data.title
    this.body = data.body
    this.tags = [...data.tags]
  }

  /** @param {string} tag */
  hasTag(tag) {
    return this.tags.includes(normalizeTag(tag))
  }
}

/** @param {string} tag */
export function normalizeTag(tag) {
  return tag.trim().toLowerCase()
}

/** @param {string} title @param {string} body @param {string[]} [tags] */
export function createNote(title, body, tags = []) {
  return new Note({ title, body, tags: tags.map(normalizeTag) })
}
`,
  'src/storage.js': `
/** A place notes are kept. Subclasses implement load and save. */
export class NoteStorage {
  /** @returns {import('./note.js').Note[]} */
  load() {
    throw new Error('not implemented')
  }

  /** @param {import('./note.js').Note[]} notes */
  save(notes) {
    throw new Error(\`not implemented: \${notes.length}\`)
  }
}

export class MemoryStorage extends NoteStorage {
  /** @type {import('./note.js').Note[]} */
  notes = []

  load() {
    return [...this.notes]
  }

  /** @param {import('./note.js').Note[]} notes */
  save(notes) {
    this.notes = [...notes]
  }
}

export class JsonFileStorage extends NoteStorage {
  /** @param {{ read(): string, write(text: string): void }} file */
  constructor(file) {
    super()
    this.file = file
  }

  load() {
    return JSON.parse(this.file.read())
  }

  /** @param {import('./note.js').Note[]} notes */
  save(notes) {
    this.file.write(JSON.stringify(notes))
  }
}
`,
  'src/notebook.js': `
import { createNote } from './note.js'
import { MemoryStorage } from './storage.js'

export class Notebook {
  /** @param {import('./storage.js').NoteStorage} [storage] */
  constructor(storage = new MemoryStorage()) {
    this.storage = storage
  }

  /** @param {string} title @param {string} body @param {string[]} [tags] */
  add(title, body, tags) {
    const note = createNote(title, body, tags)
    this.storage.save([...this.storage.load(), note])
    return note
  }

  /** @param {string} tag */
  tagged(tag) {
    return this.storage.load().filter((note) => note.hasTag(tag))
  }
}

/** @param {Notebook} notebook */
export function summarize(notebook) {
  return countByTag(notebook.storage.load())
}

/** @param {import('./note.js').Note[]} notes */
export function countByTag(notes) {
  /** @type {Record<string, number>} */
  const counts = {}
  for (const note of notes) for (const tag of note.tags) counts[tag] = (counts[tag] ?? 0) + 1
  return counts
}
`,
  'src/search.mjs': `
import { normalizeTag } from './note.js'

/** @param {import('./note.js').Note[]} notes @param {string} text */
export function searchNotes(notes, text) {
  const needle = text.toLowerCase()
  return notes.filter((note) => note.title.toLowerCase().includes(needle) || note.tags.includes(normalizeTag(text)))
}
`,
  'scripts/report.mjs': `
import { Notebook, summarize } from '../src/notebook.js'
import { searchNotes } from '../src/search.mjs'

const notebook = new Notebook()
notebook.add('Groceries', 'milk, tea', ['home'])
notebook.add('Release', 'tag v1', ['work', 'Home'])
console.log(summarize(notebook))
console.log(searchNotes(notebook.storage.load(), 'home').length)
`,
  'test/note.test.js': `
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Note, createNote, normalizeTag } from '../src/note.js'

test('notes normalise their tags', () => {
  const note = createNote('a', 'b', [' Work '])
  assert.ok(note instanceof Note)
  assert.ok(note.hasTag('WORK'))
  assert.equal(normalizeTag('  X '), 'x')
})
`,
  'test/notebook.test.js': `
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Notebook, countByTag, summarize } from '../src/notebook.js'
import { JsonFileStorage, MemoryStorage } from '../src/storage.js'

test('a notebook finds notes by tag', () => {
  const notebook = new Notebook(new MemoryStorage())
  notebook.add('one', '', ['x'])
  notebook.add('two', '', ['x', 'y'])
  assert.equal(notebook.tagged('x').length, 2)
  assert.deepEqual(summarize(notebook), { x: 2, y: 1 })
  assert.deepEqual(countByTag([]), {})
})

test('json storage round-trips', () => {
  let text = '[]'
  const storage = new JsonFileStorage({ read: () => text, write: (t) => (text = t) })
  const notebook = new Notebook(storage)
  notebook.add('one', 'body')
  assert.equal(storage.load().length, 1)
})
`,
}

export function writePlainJavaScriptFolder(parent?: string): GeneratedWorkspace {
  return writeTree('plain-js', plainJavaScriptFiles, parent)
}

/** Every generator by name. */
export const shapeWriters: Readonly<Record<ShapeName, (parent?: string) => GeneratedWorkspace>> = {
  vite: writeViteApp,
  angular: writeAngularApp,
  nx: writeNxWorkspace,
  'plain-js': writePlainJavaScriptFolder,
}
