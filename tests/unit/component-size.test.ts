// No React component function is longer than about a screen and a half (issue 29): a longer one does several things,
// and each of them reads better as a component of its own with a name that says what it is.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const maxLines = 150
const root = path.resolve(import.meta.dirname, '../..')
const sourceFolder = path.join(root, 'src')
/** Written by tools, not by hand. */
const generatedFolders = [path.join(sourceFolder, 'paraglide')]
const isGenerated = (file: string) => /\.gen\.tsx$/.test(file)

interface ComponentFunction {
  file: string
  line: number
  name: string
  lines: number
}

function tsxFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name)
    if (entry.isDirectory()) return generatedFolders.includes(full) ? [] : tsxFiles(full)
    return entry.name.endsWith('.tsx') && !isGenerated(entry.name) ? [full] : []
  })
}

const isFunction = (node: ts.Node | undefined): node is ts.ArrowFunction | ts.FunctionExpression =>
  node !== undefined && (ts.isArrowFunction(node) || ts.isFunctionExpression(node))

/**
 * A component's name and the function that is its body: `function Name()`, `const Name = () =>` or `= function`,
 * `const Name = memo(() => …)` (the function a wrapper is given), and a named `function Name()` expression (such as a
 * withForm render).
 */
function componentOf(node: ts.Node): { name: string; body: ts.Node } | undefined {
  if (ts.isFunctionDeclaration(node) && node.name) return { name: node.name.text, body: node }
  if (ts.isFunctionExpression(node) && node.name) return { name: node.name.text, body: node }
  if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
    const { initializer } = node
    if (isFunction(initializer) && !(ts.isFunctionExpression(initializer) && initializer.name))
      return { name: node.name.text, body: initializer }
    if (ts.isCallExpression(initializer)) {
      const wrapped = initializer.arguments[0]
      if (isFunction(wrapped) && !(ts.isFunctionExpression(wrapped) && wrapped.name))
        return { name: node.name.text, body: wrapped }
    }
  }
  return undefined
}

/** Every capitalised function of a file (React's rule for what is a component), with its length in lines. */
function componentFunctions(file: string, text: string): ComponentFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
  const found: ComponentFunction[] = []
  const visit = (node: ts.Node) => {
    const component = componentOf(node)
    if (component && /^[A-Z]/.test(component.name)) {
      const start = source.getLineAndCharacterOfPosition(component.body.getStart(source)).line
      const end = source.getLineAndCharacterOfPosition(component.body.getEnd()).line
      found.push({ file, line: start + 1, name: component.name, lines: end - start + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('component size', () => {
  it('finds each way a component is written, and measures it', () => {
    const text = [
      'export function Declared() {', //  1
      '  return null',
      '}',
      'const Arrow = () => (', //         4
      '  <div />',
      ')',
      'const Wrapped = memo(() => null)', // 7
      'const Form = withForm({ render: function FormRender() {', // 8
      '  return null',
      '} })',
      'function helper() {}', //         11
      'const lower = () => null',
    ].join('\n')
    expect(componentFunctions('example.tsx', text).map(({ name, line, lines }) => [name, line, lines])).toEqual([
      ['Declared', 1, 3],
      ['Arrow', 4, 3],
      ['Wrapped', 7, 1],
      ['FormRender', 8, 3],
    ])
  })

  it(`keeps every component function in src at ${maxLines} lines or fewer`, () => {
    const tooLong = tsxFiles(sourceFolder)
      .flatMap((file) => componentFunctions(path.relative(root, file), readFileSync(file, 'utf8')))
      .filter((component) => component.lines > maxLines)
      .map(({ file, line, name, lines }) => `${file}:${line} ${name} is ${lines} lines`)
    expect(tooLong, `split these into smaller components (at most ${maxLines} lines each)`).toEqual([])
  })
})
