import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import js from '@eslint/js'
import type { ESLint, Linter } from 'eslint'
import { defineConfig, globalIgnores } from 'eslint/config'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import { importX } from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const root = fileURLToPath(new URL('.', import.meta.url))

// Files that only the framework loads: no layer below the routes imports them.
const entries = ['./app/routes', './app/router.tsx', './app/routeTree.gen.ts', './app/server.tsx', './app/start.ts']

const featureNames = (projectRoot: string) => {
  try {
    return readdirSync(join(projectRoot, 'app/features'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  } catch {
    return []
  }
}

/**
 * The layers of app/ and who may import whom, checked on resolved paths so that `~/…`, `#domain/…`
 * and relative imports are treated alike. `projectRoot` holds app/ and the tsconfig.json that maps the aliases.
 */
export function appBoundaries(projectRoot: string): Linter.Config[] {
  const zones = [
    { target: './app/domain', from: './app', except: ['./domain'], message: 'The domain imports nothing else from app/.' },
    { target: './app/ui', from: './app', except: ['./ui', './domain'], message: 'The design system imports only the domain.' },
    {
      target: './app/platform',
      from: ['./app/features', './app/server', ...entries],
      message: 'The desktop-shell module imports the domain, ui and core only.',
    },
    {
      target: './app/core',
      from: ['./app/features', './app/platform', ...entries],
      message: 'The core imports domain and ui (and edge modules from its server functions), never platform, features or routes.',
    },
    {
      target: './app/server',
      from: ['./app/features', './app/ui', ...entries],
      message: 'Edge modules import the domain and the core (types), never features, routes or ui.',
    },
    { target: './app/features', from: entries, message: 'Features never import routes: routes compose features.' },
    ...featureNames(projectRoot).map((name) => ({
      target: `./app/features/${name}`,
      from: './app/features',
      except: [`./${name}`],
      message: 'A feature never imports another feature: move the shared part into core, ui or domain, or compose both in a route.',
    })),
  ]
  return [
    {
      files: ['**/*.{ts,tsx,js,mjs}'],
      languageOptions: { parser: tseslint.parser },
      plugins: { 'import-x': importX as ESLint.Plugin, '@typescript-eslint': tseslint.plugin },
      settings: {
        // Without these the import graph skips TypeScript files and no-cycle sees nothing.
        'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
        'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
        'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
        'import-x/resolver-next': [createTypeScriptImportResolver({ project: join(projectRoot, 'tsconfig.json'), alwaysTryTypes: true })],
      },
    },
    {
      files: ['app/**/*.{ts,tsx}'],
      rules: {
        'import-x/no-restricted-paths': ['error', { basePath: projectRoot, zones }],
        'import-x/no-cycle': ['error', { ignoreExternal: true }],
      },
    },
    {
      // The edge may know the core's types, never run its browser code.
      files: ['app/server/**/*.{ts,tsx}'],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: ['~/core', '~/core/*', '../core', '../core/*', '../../core', '../../core/*'],
                allowTypeImports: true,
                message: 'Edge modules import only types from the core.',
              },
            ],
          },
        ],
      },
    },
  ]
}

export default defineConfig(
  globalIgnores([
    'app/routeTree.gen.ts',
    'dist/',
    'functions/lib/',
    '.local/',
    '.wrangler/',
    '.tanstack/',
    'public/',
    'test-results/',
    'playwright-report/',
    // Scanner output as the tools write it (ScoutSuite's results are a script assigning a variable).
    'tests/fixtures/scans/**/*.js',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'emulators/mail/inbox/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    // The plugin's own presets add the compiler rules; these two are the long-standing correctness checks.
    plugins: { 'react-hooks': { rules: reactHooks.rules } as ESLint.Plugin },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      // The live-data hooks take deps like useEffect: their callers are checked the same way.
      'react-hooks/exhaustive-deps': ['error', { additionalHooks: '^(useLazySubscription|useLiveData)$' }],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['app/**/*.test.{ts,tsx}'],
    rules: {
      // Decision 0032: an Intl object made when its module loads puts its locale's data into the
      // task that evaluates a page's modules. Make it on first use.
      'no-restricted-syntax': [
        'error',
        ...['Program > VariableDeclaration', 'Program > ExportNamedDeclaration > VariableDeclaration'].flatMap((declaration) =>
          ['NewExpression.init', 'MemberExpression.init > NewExpression.object'].map((made) => ({
            selector: `${declaration} > VariableDeclarator > ${made}[callee.object.name='Intl']`,
            message: 'Make Intl objects on first use, not when the module loads (decision 0032).',
          })),
        ),
      ],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['app/ui/lazy-part.ts'],
    rules: {
      // A part loaded with React.lazy whose fetch failed offline took the whole page down: lazyPart
      // loads it again once the browser is back online.
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'react', importNames: ['lazy'], message: 'Use lazyPart from ~/ui/lazy-part: it survives a dropped connection.' }],
        },
      ],
    },
  },
  appBoundaries(root),
)
