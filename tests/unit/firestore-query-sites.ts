// Finds every place the product builds a Firestore query, from the source: the browser SDK's
// where / orderBy / collectionGroup (firebase/firestore), the Admin SDK's .where / .orderBy /
// .collectionGroup chains (functions/src) and structured queries sent over REST. A site is a
// top-level declaration of a file; what it asks (filters, orders, collections) is read from the
// literals it passes, so the query catalogue can be checked against it.
import ts from 'typescript'
import type { FilterOp, Scope } from './firestore-index-rules'

/**
 * Where a queried collection's id comes from: a string, or a name (constant or path builder) and
 * the module it is imported from (null: neither imported nor declared in the file, e.g. a parameter).
 */
export type CollectionSource = { scope: Scope; literal: string } | { scope: Scope; name: string; from: string | null }

export interface QuerySite {
  /** `file#declaration` */
  site: string
  /** `field op`, each once, sorted */
  filters: string[]
  /** `field asc|desc`, each once, sorted */
  orders: string[]
  sources: CollectionSource[]
  /** What the catalogue cannot describe (a field or operator not written as a literal, cursors, or/and filters). */
  problems: string[]
}

const WEB_MODULES = ['firebase/firestore', 'firebase/firestore/lite']
/** Project helpers whose argument names the collection a query is built on: name → argument index. */
const COLLECTION_HELPERS: Record<string, number> = { watchQuery: 0, watchPages: 0 }
/** Query parts the index rules here do not model (cursors need nothing beyond the order): a site that uses one fails until they do. */
const UNMODELLED = ['and', 'or', 'limitToLast', 'findNearest']
const FILTER_OPS: readonly string[] = ['==', 'in', 'array-contains', 'array-contains-any', '<', '<=', '>', '>=', '!=', 'not-in']
const REST_OPS: Record<string, FilterOp> = {
  EQUAL: '==',
  IN: 'in',
  ARRAY_CONTAINS: 'array-contains',
  ARRAY_CONTAINS_ANY: 'array-contains-any',
  LESS_THAN: '<',
  LESS_THAN_OR_EQUAL: '<=',
  GREATER_THAN: '>',
  GREATER_THAN_OR_EQUAL: '>=',
  NOT_EQUAL: '!=',
  NOT_IN: 'not-in',
}

/**
 * The one runner of structured queries over REST that takes the query as an object (its third
 * argument): its callers are the sites, each read from the literal it passes.
 */
const REST_RUNNER = { module: '~/server/firestore-rest', name: 'runStructuredQuery', file: 'app/server/firestore-rest.ts', queryArg: 2 }

/** Cheap test before parsing: files without any of these words build no query. */
export const MAY_QUERY = /\b(where|orderBy|collectionGroup|structuredQuery|limitToLast|startAfter|startAt|endAt|endBefore|findNearest)\b/

const text = (node: ts.Node, file: ts.SourceFile) => node.getText(file).replace(/\s+/g, ' ')
const stringOf = (node: ts.Node | undefined): string | null =>
  node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : null

function topLevelName(statement: ts.Statement): string {
  if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) return statement.name?.text ?? 'default'
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.map((d) => d.name.getText()).join(',')
  return `statement@${statement.pos}`
}

function walk(node: ts.Node, visit: (node: ts.Node) => void) {
  visit(node)
  node.forEachChild((child) => walk(child, visit))
}

export function scanSource(file: string, source: string): QuerySite[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const admin = file.startsWith('functions/')
  // Imported names: local → { imported name, module }.
  const imports = new Map<string, { name: string; from: string }>()
  const localStrings = new Map<string, string>()
  for (const statement of sf.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const bindings = statement.importClause?.namedBindings
      if (bindings && ts.isNamedImports(bindings))
        for (const e of bindings.elements)
          imports.set(e.name.text, { name: (e.propertyName ?? e.name).getText(sf), from: statement.moduleSpecifier.text })
    }
    if (ts.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations) {
        const value = stringOf(d.initializer)
        if (ts.isIdentifier(d.name) && value !== null) localStrings.set(d.name.text, value)
      }
  }
  const web = (node: ts.Expression, name: string) =>
    ts.isIdentifier(node) && imports.get(node.text)?.name === name && WEB_MODULES.includes(imports.get(node.text)!.from)
  const helper = (node: ts.Expression) =>
    ts.isIdentifier(node) && imports.has(node.text) ? COLLECTION_HELPERS[imports.get(node.text)!.name] : undefined

  const restRunner = (node: ts.Expression) =>
    ts.isIdentifier(node) && imports.get(node.text)?.name === REST_RUNNER.name && imports.get(node.text)?.from === REST_RUNNER.module
  const sites: QuerySite[] = []

  for (const statement of sf.statements) {
    const site: QuerySite = { site: `${file}#${topLevelName(statement)}`, filters: [], orders: [], sources: [], problems: [] }
    // Local variables by name, each with the block it is visible in: a use takes the innermost.
    const declarations = new Map<string, { init: ts.Expression; scope: ts.Node }[]>()
    walk(statement, (node) => {
      if (!ts.isVariableDeclaration(node) || !ts.isIdentifier(node.name) || !node.initializer) return
      let scope: ts.Node = node
      while (scope.parent && !ts.isBlock(scope.parent) && !ts.isSourceFile(scope.parent) && !ts.isFunctionLike(scope.parent))
        scope = scope.parent
      const entry = { init: node.initializer, scope: scope.parent ?? scope }
      declarations.set(node.name.text, [...(declarations.get(node.name.text) ?? []), entry])
    })
    const declared = (use: ts.Identifier) =>
      (declarations.get(use.text) ?? [])
        .filter(({ scope }) => scope.pos <= use.pos && use.end <= scope.end)
        .sort((a, b) => a.scope.end - a.scope.pos - (b.scope.end - b.scope.pos))[0]?.init
    const problem = (node: ts.Node, why: string) => site.problems.push(`${why}: ${text(node, sf).slice(0, 120)}`)

    const named = (node: ts.Expression, scope: Scope): CollectionSource | null => {
      const literal = stringOf(node)
      if (literal !== null) return { scope, literal }
      if (ts.isIdentifier(node)) {
        if (localStrings.has(node.text)) return { scope, literal: localStrings.get(node.text)! }
        const init = declared(node)
        if (init) return named(init, scope)
        return { scope, name: imports.get(node.text)?.name ?? node.text, from: imports.get(node.text)?.from ?? null }
      }
      if (ts.isCallExpression(node)) {
        if (ts.isIdentifier(node.expression)) return named(node.expression, scope)
        // `scansPath(company).slice(…)`: the path the builder made, cut.
        if (ts.isPropertyAccessExpression(node.expression)) return named(node.expression.expression, scope)
      }
      if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return named(node.expression, scope)
      return null
    }

    /** The collection a query expression starts from, following its chain and local variables. */
    const rootOf = (node: ts.Expression, seen = new Set<string>()): CollectionSource | null => {
      if (ts.isParenthesizedExpression(node) || ts.isAwaitExpression(node) || ts.isAsExpression(node)) return rootOf(node.expression, seen)
      if (ts.isConditionalExpression(node)) return rootOf(node.whenTrue, seen) ?? rootOf(node.whenFalse, seen)
      if (ts.isIdentifier(node)) {
        const init = declared(node)
        if (!init || seen.has(node.text)) return null
        return rootOf(init, new Set([...seen, node.text]))
      }
      if (!ts.isCallExpression(node)) return null
      const callee = node.expression
      if (web(callee, 'collection')) return node.arguments.length === 2 ? named(node.arguments[1]!, 'COLLECTION') : null
      if (web(callee, 'collectionGroup')) return named(node.arguments[1]!, 'COLLECTION_GROUP')
      if (web(callee, 'query')) return rootOf(node.arguments[0]!, seen)
      if (helper(callee) !== undefined) return named(node.arguments[helper(callee)!]!, 'COLLECTION')
      if (ts.isPropertyAccessExpression(callee)) {
        if (callee.name.text === 'collection' && admin) return named(node.arguments[0]!, 'COLLECTION')
        if (callee.name.text === 'collectionGroup' && admin) return named(node.arguments[0]!, 'COLLECTION_GROUP')
        return rootOf(callee.expression, seen)
      }
      return null
    }
    const addSource = (node: ts.Expression) => {
      const source = rootOf(node)
      if (source) site.sources.push(source)
      else problem(node, 'a query whose collection is not found')
    }
    const fieldOf = (node: ts.Expression | undefined): string | null => {
      if (!node) return null
      const literal = stringOf(node)
      if (literal !== null) return literal
      // documentId() / FieldPath.documentId()
      if (ts.isCallExpression(node) && (web(node.expression, 'documentId') || node.expression.getText(sf) === 'FieldPath.documentId'))
        return '__name__'
      return null
    }
    const addFilter = (call: ts.CallExpression) => {
      const field = fieldOf(call.arguments[0])
      const op = stringOf(call.arguments[1])
      if (field === null || op === null || !FILTER_OPS.includes(op))
        return problem(call, 'a filter not written with a literal field and operator')
      site.filters.push(`${field} ${op}`)
    }
    const addOrder = (call: ts.CallExpression) => {
      const field = fieldOf(call.arguments[0])
      const direction = call.arguments[1] === undefined ? 'asc' : stringOf(call.arguments[1])
      if (field === null || (direction !== 'asc' && direction !== 'desc'))
        return problem(call, 'an order not written with a literal field and direction')
      site.orders.push(`${field} ${direction}`)
    }

    walk(statement, (node) => {
      if (!ts.isCallExpression(node)) return
      const callee = node.expression
      if (ts.isIdentifier(callee)) {
        if (web(callee, 'where')) addFilter(node)
        else if (web(callee, 'orderBy')) addOrder(node)
        else if (web(callee, 'query') || helper(callee) !== undefined || web(callee, 'collectionGroup')) {
          // A query's collection; a bare helper call or collection group with nothing to index is a plain read.
          const constraints = web(callee, 'collectionGroup') ? 1 : node.arguments.length - (web(callee, 'query') ? 1 : 2)
          if (constraints > 0) addSource(node)
        } else if (UNMODELLED.some((name) => web(callee, name))) problem(node, 'a query part the index check does not model')
        else if (restRunner(callee)) runnerCall(node)
      } else if (admin && ts.isPropertyAccessExpression(callee)) {
        const method = callee.name.text
        if (method === 'where' && node.arguments.length >= 2) {
          addFilter(node)
          addSource(callee.expression)
        } else if (method === 'where') problem(node, 'a Filter object the index check does not model')
        else if (method === 'orderBy') {
          addOrder(node)
          addSource(callee.expression)
        } else if (method === 'collectionGroup') addSource(node)
        else if (UNMODELLED.includes(method) && rootOf(callee.expression)) problem(node, 'a query part the index check does not model')
      }
    })

    /** A call of the REST runner: the query literal names its collection, and its filters and orders are objects with a `field`. */
    function runnerCall(call: ts.CallExpression) {
      let query = call.arguments[REST_RUNNER.queryArg]
      if (query && ts.isIdentifier(query)) query = declared(query) ?? query
      if (!query || !ts.isObjectLiteralExpression(query)) return problem(call, 'a REST query not written as an object literal')
      const literal = query
      const prop = (node: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined => {
        const found = node.properties.find(
          (p) => (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && p.name.getText(sf) === name,
        )
        return (
          found && (ts.isPropertyAssignment(found) ? found.initializer : ts.isShorthandPropertyAssignment(found) ? found.name : undefined)
        )
      }
      const group = prop(literal, 'allDescendants')?.kind === ts.SyntaxKind.TrueKeyword
      const collectionId = prop(literal, 'collectionId')
      const source = collectionId && named(collectionId, group ? 'COLLECTION_GROUP' : 'COLLECTION')
      if (source) site.sources.push(source)
      else problem(call, 'a REST query whose collection is not found')
      walk(literal, (node) => {
        if (!ts.isObjectLiteralExpression(node)) return
        const field = stringOf(prop(node, 'field'))
        if (field === null) return
        const op = prop(node, 'op')
        const direction = prop(node, 'direction')
        if (op) {
          const known = REST_OPS[stringOf(ts.isAsExpression(op) || ts.isSatisfiesExpression(op) ? op.expression : op) ?? '']
          if (known) site.filters.push(`${field} ${known}`)
          else problem(node, 'a filter not written with a literal operator')
        } else if (direction) {
          const d = stringOf(direction)
          if (d === 'ASCENDING' || d === 'DESCENDING') site.orders.push(`${field} ${d === 'ASCENDING' ? 'asc' : 'desc'}`)
          else problem(node, 'an order not written with a literal direction')
        } else problem(node, 'a field with neither an operator nor a direction')
      })
    }

    // Structured queries go through the runner, whose callers can be read; any other is not.
    if (file !== REST_RUNNER.file)
      walk(statement, (node) => {
        if (ts.isPropertyAssignment(node) && node.name.getText(sf) === 'structuredQuery')
          problem(node, `a structured query sent other than through ${REST_RUNNER.name}`)
      })
    // A helper handed its collection by its callers (watchQuery), adding nothing itself: its callers are the sites.
    const passThrough = site.sources.every((s) => 'name' in s && s.from === null) && site.filters.length + site.orders.length === 0
    if (passThrough && site.problems.length === 0) continue
    const unique = (list: string[]) => [...new Set(list)].sort()
    const key = (s: CollectionSource) => JSON.stringify(s)
    sites.push({
      ...site,
      filters: unique(site.filters),
      orders: unique(site.orders),
      sources: [...new Map(site.sources.map((s) => [key(s), s])).values()],
    })
  }
  return sites
}
