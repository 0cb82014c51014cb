import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findJava, JavaNotFoundError, parseJavaMajor, readJavaInstall } from './java.ts'

// A fake system JVM folder like Debian's: a JDK per folder, each with bin/java and a release file,
// and a bin folder whose `java` is a symlink into one of them (as /usr/bin/java -> alternatives).
let root: string
let jvm: string
let pathBin: string

function fakeJdk(name: string, version: string | null): string {
  const home = path.join(jvm, name)
  mkdirSync(path.join(home, 'bin'), { recursive: true })
  if (version === null) {
    // No release file: the version has to come from running it.
    writeFileSync(path.join(home, 'bin', 'java'), '#!/bin/sh\necho \'openjdk version "22.0.1" 2024-04-16\' >&2\n')
    chmodSync(path.join(home, 'bin', 'java'), 0o755)
  } else {
    writeFileSync(path.join(home, 'bin', 'java'), '')
    writeFileSync(path.join(home, 'release'), `IMPLEMENTOR="Test"\nJAVA_VERSION="${version}"\nOS_NAME="Linux"\n`)
  }
  return home
}

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'java-discovery-'))
  jvm = path.join(root, 'jvm')
  fakeJdk('java-17-openjdk-amd64', '17.0.15')
  fakeJdk('temurin-25-jdk-amd64', '25.0.3')
  fakeJdk('jdk-21', '21.0.2')
  fakeJdk('java-8', '1.8.0_392')
  symlinkSync(path.join(jvm, 'java-17-openjdk-amd64'), path.join(jvm, 'java-1.17.0-openjdk-amd64'))
  pathBin = path.join(root, 'bin')
  mkdirSync(pathBin)
  symlinkSync(path.join(jvm, 'java-17-openjdk-amd64', 'bin', 'java'), path.join(pathBin, 'java'))
})

afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('parseJavaMajor', () => {
  it('reads modern and legacy version strings', () => {
    expect(parseJavaMajor('25.0.3')).toBe(25)
    expect(parseJavaMajor('21')).toBe(21)
    expect(parseJavaMajor('17.0.15+6-Debian-1deb12u1')).toBe(17)
    expect(parseJavaMajor('1.8.0_392')).toBe(8)
    expect(parseJavaMajor('unknown')).toBeNull()
  })
})

describe('findJava', () => {
  it('takes JAVA_HOME when it is new enough, even with a newer JDK beside it', () => {
    const home = path.join(jvm, 'jdk-21')
    expect(findJava({ env: { JAVA_HOME: home, PATH: pathBin }, searchRoots: [] })).toEqual({
      home,
      major: 21,
      version: '21.0.2',
    })
  })

  it('skips an old JAVA_HOME and the old java on PATH for the newest sibling JDK', () => {
    const found = findJava({ env: { JAVA_HOME: path.join(jvm, 'java-8'), PATH: pathBin }, searchRoots: [] })
    expect(found.home).toBe(path.join(jvm, 'temurin-25-jdk-amd64'))
    expect(found.major).toBe(25)
  })

  it('takes the java on PATH itself when it is new enough', () => {
    const found = findJava({ env: { PATH: path.join(jvm, 'jdk-21', 'bin') }, searchRoots: [] })
    expect(found.home).toBe(path.join(jvm, 'jdk-21'))
  })

  it('searches the given JVM folders when nothing is on PATH', () => {
    expect(findJava({ env: { PATH: '' }, searchRoots: [jvm] }).major).toBe(25)
  })

  it('runs a java without a release file to learn its version', () => {
    const home = fakeJdk('no-release', null)
    expect(readJavaInstall(home)).toEqual({ home, major: 22, version: '22.0.1' })
  })

  it('fails with one line that says what to install', () => {
    const attempt = () => findJava({ env: { PATH: pathBin }, searchRoots: [], minMajor: 99 })
    expect(attempt).toThrow(JavaNotFoundError)
    expect(attempt).toThrow(/No Java 99 or newer found .*install a JDK 99\+/)
    try {
      attempt()
    } catch (error) {
      expect((error as Error).message).not.toContain('\n')
      expect((error as Error).message).toContain(path.join(jvm, 'java-17-openjdk-amd64'))
    }
  })
})
