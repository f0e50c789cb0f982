import { spawn } from 'node:child_process'
import { LspError } from '@codeseam/lsp'

import { ownPackageRequire } from '../../profile/own-packages.js'

/**
 * The TypeScript project model: what the server loads. A project is every `tsconfig.json` / `jsconfig.json`
 * under the root plus every config they reference, transitively, whatever its file name; each is read with
 * the TypeScript compiler API (`extends`, `references`, `files` / `include` / `exclude`) in a short-lived
 * child process, so the compiler (~0.5 s and ~90 MB to load) never stays in the host's memory.
 */
export interface TsProject {
  /** Canonical path of the config file. */
  readonly config: string
  /** Root files of the project inside the workspace (as the compiler evaluates files/include/exclude). */
  readonly files: ReadonlyArray<string>
  /** Configs this one references (inside the workspace). */
  readonly references: ReadonlyArray<string>
  /** Where its non-relative imports may resolve besides node_modules: `paths` targets cut at `*`, `baseUrl`, `rootDirs`, `typeRoots`. */
  readonly aliases?: ReadonlyArray<string>
  /** Its `compilerOptions.types` (packages it loads without an import). */
  readonly types?: ReadonlyArray<string>
}

export interface TsProjectGraph {
  readonly projects: ReadonlyArray<TsProject>
  /** Every config file read while evaluating the graph (configs and the targets of their `extends`): watched. */
  readonly configFiles: ReadonlyArray<string>
  /** Configs that could not be read or parsed, with the compiler's message (the project is skipped). */
  readonly errors: ReadonlyArray<{ readonly config: string; readonly message: string }>
}

/**
 * The child's program (CommonJS, run with `node -e`, the compiler's path its argument: it loads while the configs are
 * still being listed). Input on stdin: `{ root, configs }`; output on stdout: a {@link TsProjectGraph}. Every file-system call the compiler makes goes through a guard that
 * answers "absent" for anything that resolves outside the root, so evaluating a config never reads
 * outside the workspace (an `extends` or a reference that points out is reported as an error).
 */
const childSource = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const ts = require(process.argv[1]);
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  const { root, configs } = JSON.parse(input);
  const real = (p) => { try { return fs.realpathSync(p); } catch { return undefined; } };
  const inside = (p) => {
    const resolved = path.resolve(p);
    const canonical = real(resolved) ?? real(path.dirname(resolved)) ?? resolved;
    return canonical === root || canonical.startsWith(root + path.sep);
  };
  const reads = new Set();
  const host = {
    useCaseSensitiveFileNames: ts.sys.useCaseSensitiveFileNames,
    getCurrentDirectory: () => root,
    fileExists: (p) => inside(p) && ts.sys.fileExists(p),
    directoryExists: (p) => inside(p) && ts.sys.directoryExists(p),
    readFile: (p) => { if (!inside(p)) return undefined; const text = ts.sys.readFile(p); if (text !== undefined) reads.add(real(p) ?? path.resolve(p)); return text; },
    readDirectory: (dir, ext, exclude, include, depth) => inside(dir) ? ts.sys.readDirectory(dir, ext, exclude, include, depth).filter(inside) : [],
    realpath: (p) => real(p) ?? p,
    onUnRecoverableConfigFileDiagnostic: () => {},
  };
  const extendedCache = new Map();
  const message = (d) => ts.flattenDiagnosticMessageText(d.messageText, '\n');
  const projects = new Map();
  const errors = [];
  const queue = configs.slice();
  while (queue.length > 0) {
    const config = real(queue.shift());
    if (config === undefined || projects.has(config) || !inside(config)) continue;
    let parsed;
    const problems = [];
    try {
      parsed = ts.getParsedCommandLineOfConfigFile(config, undefined, { ...host, onUnRecoverableConfigFileDiagnostic: (d) => problems.push(message(d)) }, extendedCache);
    } catch (error) {
      problems.push(String(error && error.message || error));
    }
    if (parsed === undefined) {
      projects.set(config, { config, files: [], references: [] });
      errors.push({ config, message: problems.join('; ') || 'unreadable' });
      continue;
    }
    const references = [];
    for (const reference of parsed.projectReferences || []) {
      const target = real(ts.resolveProjectReferencePath(reference));
      if (target === undefined || !inside(target)) { errors.push({ config, message: 'reference ' + reference.path + ' is missing or outside the workspace' }); continue; }
      references.push(target);
      queue.push(target);
    }
    const files = [];
    for (const file of parsed.fileNames) { const canonical = real(file); if (canonical !== undefined && inside(canonical)) files.push(canonical); }
    const o = parsed.options || {};
    const base = o.baseUrl || o.pathsBasePath || path.dirname(config);
    const aliases = o.baseUrl ? [path.resolve(o.baseUrl)] : [];
    for (const targets of Object.values(o.paths || {})) for (const t of targets) aliases.push(path.resolve(base, String(t).split('*')[0]));
    for (const dir of (o.rootDirs || []).concat(o.typeRoots || [])) aliases.push(path.resolve(dir));
    projects.set(config, { config, files, references, aliases, types: o.types || [] });
  }
  process.stdout.write(JSON.stringify({ projects: [...projects.values()], configFiles: [...reads].sort(), errors }));
});
`

/** Our own TypeScript compiler API (never the workspace's node_modules/typescript). */
function typeScriptModule(): string {
  try {
    return ownPackageRequire().resolve('typescript')
  } catch (error) {
    throw new LspError(
      'UNAVAILABLE',
      'the TypeScript compiler API (typescript) is not installed next to @codeseam/lsp-local, so projects cannot be read: run pnpm install',
      { cause: error },
    )
  }
}

/**
 * Reads the project graph of `root` (canonical) starting from `configs` (the tsconfig.json / jsconfig.json
 * files found under it), in a child process bounded by `timeoutMs` and `signal`. Given as a promise, the configs are
 * listed while the child loads the compiler (the larger part of its time); none found, the child is ended unused.
 */
export function discoverTsProjects(
  root: string,
  configs: ReadonlyArray<string> | Promise<ReadonlyArray<string>>,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<TsProjectGraph> {
  if (Array.isArray(configs) && configs.length === 0) return Promise.resolve({ projects: [], configFiles: [], errors: [] })
  if (options.signal?.aborted) return Promise.reject(new LspError('CANCELLED', 'reading the TypeScript projects was cancelled'))
  const ts = typeScriptModule()
  return new Promise<TsProjectGraph>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', childSource, ts], {
      stdio: ['pipe', 'pipe', 'pipe'],
      cwd: root,
      windowsHide: true,
      env: { PATH: process.env['PATH'] ?? '' },
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    let settled = false
    const finish = (error: LspError | undefined, graph?: TsProjectGraph) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      if (error !== undefined) {
        child.kill('SIGKILL')
        reject(error)
      } else resolve(graph as TsProjectGraph)
    }
    const onAbort = () => finish(new LspError('CANCELLED', 'reading the TypeScript projects was cancelled'))
    const timer = setTimeout(
      () => finish(new LspError('TIMEOUT', `reading the TypeScript projects of ${root} took longer than ${options.timeoutMs} ms`)),
      Math.max(1, options.timeoutMs),
    )
    options.signal?.addEventListener('abort', onAbort, { once: true })
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
    child.on('error', (error) =>
      finish(new LspError('UNAVAILABLE', `could not start the process that reads TypeScript projects: ${error.message}`, { cause: error })),
    )
    child.on('close', (code) => {
      if (code !== 0) {
        finish(
          new LspError(
            'SERVER_ERROR',
            `reading the TypeScript projects of ${root} failed (exit ${String(code)}): ${Buffer.concat(err).toString('utf8').trim().split('\n').slice(-3).join(' ')}`,
          ),
        )
        return
      }
      try {
        finish(undefined, JSON.parse(Buffer.concat(out).toString('utf8')) as TsProjectGraph)
      } catch (error) {
        finish(
          new LspError('SERVER_ERROR', `reading the TypeScript projects of ${root} gave unreadable output: ${(error as Error).message}`),
        )
      }
    })
    child.stdin.on('error', () => {})
    Promise.resolve(configs).then(
      (listed) => {
        if (listed.length > 0) child.stdin.end(JSON.stringify({ root, configs: listed }))
        else {
          finish(undefined, { projects: [], configFiles: [], errors: [] })
          child.kill('SIGKILL')
        }
      },
      (error: unknown) =>
        finish(
          error instanceof LspError
            ? error
            : new LspError('SERVER_ERROR', `listing the TypeScript configs of ${root} failed: ${String(error)}`),
        ),
    )
  })
}

/** What to open before a workspace-wide query so the server has every project loaded. */
export interface ProjectLoadPlan {
  /** One file per project that owns files: a file no other project claims when there is one. */
  readonly projectFiles: ReadonlyArray<string>
  /** Projects that own at least one file inside the workspace. */
  readonly projectsFound: number
  /** Source files no project claims (inferred projects): opened too, up to the budget. */
  readonly looseFiles: ReadonlyArray<string>
  /** Loose files over the budget: not opened, so not searched. */
  readonly looseNotOpened: number
}

/**
 * Chooses the files to open: for each project one of its own files (the first, in path order, that only
 * this project claims — opening a file shared by two projects loads only one of them), then the source
 * files of no project, up to `looseBudget`.
 */
export function planProjectLoad(
  graph: TsProjectGraph,
  sources: ReadonlyArray<string>,
  looseBudget: number,
  accept: (path: string) => boolean = () => true,
  only?: ReadonlySet<string>,
): ProjectLoadPlan {
  const owners = new Map<string, number>()
  for (const project of graph.projects) for (const file of project.files) owners.set(file, (owners.get(file) ?? 0) + 1)
  const projectFiles: string[] = []
  let projectsFound = 0
  // `only`: the configs to pick for (the projects a question needs); the owners are counted over the whole graph.
  for (const project of graph.projects.filter((each) => only?.has(each.config) ?? true)) {
    const candidates = project.files.filter(accept).sort()
    if (candidates.length === 0) continue
    projectsFound++
    const exclusive = (file: string) => owners.get(file) === 1
    const notDeclaration = (file: string) => !/\.d\.[cm]?ts$/.test(file)
    const choice =
      candidates.find((f) => exclusive(f) && notDeclaration(f)) ??
      candidates.find(exclusive) ??
      candidates.find(notDeclaration) ??
      candidates[0]
    if (choice !== undefined && !projectFiles.includes(choice)) projectFiles.push(choice)
  }
  const loose = sources.filter((file) => !owners.has(file) && accept(file)).sort()
  const budget = Math.max(0, looseBudget)
  return { projectFiles, projectsFound, looseFiles: loose.slice(0, budget), looseNotOpened: Math.max(0, loose.length - budget) }
}

/** Config file names that define TypeScript projects or may be referenced/extended by them. */
export function isTsConfigName(name: string): boolean {
  return /^[tj]sconfig.*\.json$/.test(name)
}
