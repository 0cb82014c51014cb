// Finds a Java runtime new enough for the Firestore emulator that firebase-tools starts.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import path from 'node:path'

// firebase-tools 15 refuses older Java (commandUtils MIN_SUPPORTED_JAVA_MAJOR_VERSION).
export const MIN_JAVA_MAJOR = 21

export interface JavaInstall {
  home: string
  major: number
  version: string
}

export interface FindJavaOptions {
  env?: NodeJS.ProcessEnv
  minMajor?: number
  // Folders whose sub-folders are JDKs, searched last; defaults to the usual system locations.
  searchRoots?: readonly string[]
}

const DEFAULT_SEARCH_ROOTS = ['/usr/lib/jvm', '/usr/java', '/opt/java', '/Library/Java/JavaVirtualMachines']

const javaExe = process.platform === 'win32' ? 'java.exe' : 'java'

// "25.0.3" -> 25, "17" -> 17, legacy "1.8.0_392" -> 8.
export function parseJavaMajor(version: string): number | null {
  const match = /^(\d+)(?:\.(\d+))?/.exec(version.trim())
  if (!match) return null
  const first = Number(match[1])
  if (first === 1 && match[2] !== undefined) return Number(match[2])
  return first
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile()
  } catch {
    return false
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory()
  } catch {
    return false
  }
}

function versionFromReleaseFile(home: string): string | null {
  const release = path.join(home, 'release')
  if (!isFile(release)) return null
  const match = /^JAVA_VERSION="?([^"\n]+)"?/m.exec(readFileSync(release, 'utf8'))
  return match?.[1] ?? null
}

function versionFromBinary(home: string): string | null {
  const result = spawnSync(path.join(home, 'bin', javaExe), ['-version'], { encoding: 'utf8', timeout: 10_000 })
  if (result.status !== 0) return null
  return /version "([^"]+)"/.exec(`${result.stderr}${result.stdout}`)?.[1] ?? null
}

// A Java home is a folder with bin/java; its version comes from the `release` file every JDK and
// JRE since 9 ships, or from running it when that file is missing.
export function readJavaInstall(home: string): JavaInstall | null {
  if (!isFile(path.join(home, 'bin', javaExe))) return null
  const version = versionFromReleaseFile(home) ?? versionFromBinary(home)
  if (!version) return null
  const major = parseJavaMajor(version)
  if (major === null) return null
  return { home, major, version }
}

// The real location of the `java` that PATH would run (through /etc/alternatives and such).
export function resolveJavaOnPath(env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue
    const candidate = path.join(dir, javaExe)
    if (!isFile(candidate)) continue
    try {
      return realpathSync(candidate)
    } catch {
      continue
    }
  }
  return null
}

function homesUnder(root: string): string[] {
  if (!isDirectory(root)) return []
  const homes: string[] = []
  for (const name of readdirSync(root).sort()) {
    const dir = path.join(root, name)
    homes.push(dir, path.join(dir, 'Contents', 'Home'))
  }
  return homes
}

function canonical(dir: string): string {
  try {
    return realpathSync(dir)
  } catch {
    return path.resolve(dir)
  }
}

export class JavaNotFoundError extends Error {
  override name = 'JavaNotFoundError'
}

// Order: JAVA_HOME; the Java on PATH; the newest sibling of the Java on PATH (the system's JVM
// folder); then the usual JVM folders. The first that is new enough wins.
export function findJava(options: FindJavaOptions = {}): JavaInstall {
  const env = options.env ?? process.env
  const minMajor = options.minMajor ?? MIN_JAVA_MAJOR
  const looked: string[] = []
  const seen = new Set<string>()

  const accept = (home: string): JavaInstall | null => {
    const key = canonical(home)
    if (seen.has(key)) return null
    seen.add(key)
    const install = readJavaInstall(home)
    if (install && install.major >= minMajor) return install
    return null
  }

  const newestIn = (homes: string[]): JavaInstall | null => {
    let best: JavaInstall | null = null
    for (const home of homes) {
      const install = accept(home)
      if (install && (!best || install.major > best.major)) best = install
    }
    return best
  }

  if (env.JAVA_HOME) {
    looked.push(`JAVA_HOME=${env.JAVA_HOME}`)
    const install = accept(env.JAVA_HOME)
    if (install) return install
  }

  const onPath = resolveJavaOnPath(env)
  if (onPath) {
    const home = path.dirname(path.dirname(onPath))
    looked.push(home)
    const install = accept(home)
    if (install) return install
    const parent = path.dirname(home)
    looked.push(`${parent}/*`)
    const sibling = newestIn(homesUnder(parent))
    if (sibling) return sibling
  }

  for (const root of options.searchRoots ?? DEFAULT_SEARCH_ROOTS) {
    if (!isDirectory(root)) continue
    looked.push(`${root}/*`)
    const found = newestIn(homesUnder(root))
    if (found) return found
  }

  throw new JavaNotFoundError(
    `No Java ${minMajor} or newer found (looked at: ${looked.join(', ') || 'JAVA_HOME and PATH are empty'}); ` +
      `the Firestore emulator needs one: install a JDK ${minMajor}+ (e.g. Temurin ${minMajor} from https://adoptium.net ` +
      `or your distribution's openjdk-${minMajor}-jre-headless) and set JAVA_HOME to it.`,
  )
}
