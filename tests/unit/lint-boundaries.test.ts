import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { ESLint } from 'eslint'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appBoundaries } from '../../eslint.config.ts'

// A miniature app/ with the same aliases as the real one; every import spelling appears at least once.
const files: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      module: 'ESNext',
      moduleResolution: 'bundler',
      allowImportingTsExtensions: true,
      jsx: 'react-jsx',
      paths: { '~/*': ['./app/*'], '#domain/*': ['./app/domain/*'] },
    },
  }),
  'package.json': JSON.stringify({ type: 'module', imports: { '#domain/*': './app/domain/*' } }),
  'app/domain/model.ts': 'export const model = 1\n',
  'app/domain/ui-leak.ts': "import { button } from '../ui/button.ts'\nexport const leak = button\n",
  'app/domain/cycle-a.ts': "import { b } from './cycle-b.ts'\nexport const a = () => b\n",
  'app/domain/cycle-b.ts': "import { a } from '#domain/cycle-a.ts'\nexport const b = () => a\n",
  'app/core/session.ts':
    "import { model } from '#domain/model.ts'\nexport type Session = { id: number }\nexport const session: Session = { id: model }\n",
  'app/core/feature-leak.ts': "import { z } from '~/features/a/z'\nexport const leak = z\n",
  'app/core/cycle-c.ts': "import { d } from './cycle-d'\nexport const c = () => d\n",
  'app/core/cycle-d.ts': "import { c } from '~/core/cycle-c'\nexport const d = () => c\n",
  'app/platform/shell.ts': "import { session } from '~/core/session'\nexport const shell = session\n",
  'app/platform/feature-leak.ts': "import { z } from '~/features/a/z'\nexport const leak = z\n",
  'app/core/platform-leak.ts': "import { shell } from '~/platform/shell'\nexport const leak = shell\n",
  'app/ui/button.ts': "import { model } from '#domain/model.ts'\nexport const button = model\n",
  'app/ui/core-leak.ts': "import { session } from '~/core/session'\nexport const leak = session\n",
  'app/features/a/z.ts': 'export const z = 1\n',
  'app/features/a/x.ts': "import { y } from '~/features/b/y'\nexport const x = y\n",
  'app/features/a/relative.ts': "import { y } from '../b/y.ts'\nexport const r = y\n",
  'app/features/a/lazy.ts': "export const lazy = () => import('~/features/b/y')\n",
  'app/features/a/route-leak.ts': "import { page } from '~/routes/page'\nexport const leak = page\n",
  'app/features/a/allowed.ts': [
    "import { session } from '~/core/session'",
    "import { model } from '#domain/model.ts'",
    "import { button } from '~/ui/button'",
    "import { shell } from '~/platform/shell'",
    "import { z } from './z.ts'",
    'export const allowed = [session, model, button, shell, z]',
    '',
  ].join('\n'),
  'app/features/b/y.ts': 'export const y = 1\n',
  'app/server/feature-leak.ts': "import { y } from '~/features/b/y'\nexport const leak = y\n",
  'app/server/ui-leak.ts': "import { button } from '../ui/button.ts'\nexport const leak = button\n",
  'app/server/core-types.ts': "import type { Session } from '~/core/session'\nexport const id = (session: Session) => session.id\n",
  'app/server/core-value.ts': "import { session } from '../core/session.ts'\nexport const current = session\n",
  'app/routes/page.tsx': [
    "import { x } from '~/features/a/x'",
    "import { y } from '../features/b/y.ts'",
    "import { session } from '~/core/session'",
    'export const page = [x, y, session]',
    '',
  ].join('\n'),
}

let root = ''
let reported: Record<string, string[]> = {}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lint-boundaries-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  const eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: appBoundaries(root) })
  reported = {}
  for (const result of await eslint.lintFiles(['app'])) {
    const rules = result.messages.map((message) => `${message.line}:${message.ruleId ?? message.message}`)
    if (rules.length > 0) reported[relative(root, result.filePath)] = rules.sort()
  }
}, 60_000)

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true })
})

describe('app/ import boundaries', () => {
  it('reports every forbidden import and cycle, whatever its spelling', () => {
    expect(reported).toEqual({
      'app/domain/ui-leak.ts': ['1:import-x/no-restricted-paths'],
      'app/domain/cycle-a.ts': ['1:import-x/no-cycle'],
      'app/domain/cycle-b.ts': ['1:import-x/no-cycle'],
      'app/core/feature-leak.ts': ['1:import-x/no-restricted-paths'],
      'app/core/cycle-c.ts': ['1:import-x/no-cycle'],
      'app/core/cycle-d.ts': ['1:import-x/no-cycle'],
      'app/platform/feature-leak.ts': ['1:import-x/no-restricted-paths'],
      'app/core/platform-leak.ts': ['1:import-x/no-restricted-paths'],
      'app/ui/core-leak.ts': ['1:import-x/no-restricted-paths'],
      'app/features/a/x.ts': ['1:import-x/no-restricted-paths'],
      'app/features/a/relative.ts': ['1:import-x/no-restricted-paths'],
      'app/features/a/lazy.ts': ['1:import-x/no-restricted-paths'],
      'app/features/a/route-leak.ts': ['1:import-x/no-restricted-paths'],
      'app/server/feature-leak.ts': ['1:import-x/no-restricted-paths'],
      'app/server/ui-leak.ts': ['1:import-x/no-restricted-paths'],
      'app/server/core-value.ts': ['1:@typescript-eslint/no-restricted-imports'],
    })
  })

  it('lets a feature use the core, ui, platform, domain and its own files, the platform use the core, and routes compose features', () => {
    for (const allowed of [
      'app/features/a/allowed.ts',
      'app/routes/page.tsx',
      'app/server/core-types.ts',
      'app/ui/button.ts',
      'app/platform/shell.ts',
    ]) {
      expect(reported[allowed]).toBeUndefined()
    }
  })
})
