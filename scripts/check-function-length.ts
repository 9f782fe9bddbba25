/**
 * Lists the longest functions in src/, contract/ and server/ (declarations, arrow functions, function expressions and
 * methods, measured from their first to their last line) and fails when one is longer than the
 * limit, so a component or machine factory that grows past one screen is split into named parts.
 *
 *   node --import tsx scripts/check-function-length.ts [--top N]
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'

const LIMIT = 120
const DIRS = ['src', 'contract', 'server']

const root = join(import.meta.dirname, '..')
const topArg = process.argv.indexOf('--top')
const top = topArg > 0 ? Number(process.argv[topArg + 1]) : 10

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

function nameOf(node: ts.Node, file: ts.SourceFile): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name)
    return node.name.getText(file)
  const parent = node.parent
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
    return parent.name.getText(file)
  return '(anonymous)'
}

const found: { name: string; file: string; where: string; lines: number }[] = []
for (const path of DIRS.flatMap((dir) => sourceFiles(join(root, dir)))) {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true)
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line
      found.push({
        name: nameOf(node, file),
        file: relative(root, path),
        where: `${relative(root, path)}:${start + 1}`,
        lines: end - start + 1,
      })
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
}

found.sort((a, b) => b.lines - a.lines)
for (const f of found.slice(0, top)) console.log(`${String(f.lines).padStart(5)}  ${f.name}  ${f.where}`)
const tooLong = found.filter((f) => f.lines > LIMIT)
if (tooLong.length > 0) {
  console.error(`${tooLong.length} function(s) in ${DIRS.join('/, ')}/ longer than ${LIMIT} lines`)
  process.exit(1)
}
console.log(`no function in ${DIRS.join('/, ')}/ is longer than ${LIMIT} lines`)
