// The figures scripts/minimal-kit.ts prints for the full kit beside the minimal kit: the size of the sources and of the
// dependency list, and, measured on a running server, its cold start, the landing page's first load and its memory.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { chromium } from '@playwright/test'
import { countScripts, median } from '../../bench/first-load-scripts.ts'
import { chromiumArgs, chromiumPath } from '../chromium.ts'

export interface KitFigures {
  sourceLines: number
  dependencies: string
  coldStartMs?: number
  landingScripts?: number
  landingScriptKb?: number
  rssAfterSmokeMb?: number
}

const sourceFile = /\.(ts|tsx|css|md|mdx|json)$/

/** Lines of code and content under src/, without what is compiled into it (Paraglide's messages). */
export function sourceLines(projectDir: string): number {
  const src = path.join(projectDir, 'src')
  return readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && sourceFile.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !file.startsWith(path.join(src, 'paraglide') + path.sep))
    .reduce((sum, file) => sum + readFileSync(file, 'utf8').split('\n').length, 0)
}

export function dependencyCount(projectDir: string): string {
  const manifest = JSON.parse(readFileSync(path.join(projectDir, 'package.json'), 'utf8')) as {
    dependencies?: object
    devDependencies?: object
  }
  return `${Object.keys(manifest.dependencies ?? {}).length} + ${Object.keys(manifest.devDependencies ?? {}).length} dev`
}

/**
 * The landing page's scripts in Chromium with an empty cache, measured as bench/first-load.ts measures them (the
 * bodies as sent, bench/first-load-scripts.ts; one uncounted visit first, the median of the rest).
 */
export async function landingFirstLoad(origin: string, visits = 3): Promise<{ scripts: number; scriptKb: number }> {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  try {
    const measured: { scripts: number; scriptKb: number }[] = []
    for (let index = 0; index <= visits; index++) {
      const context = await browser.newContext()
      const tab = await context.newPage()
      const scriptsSent = countScripts(tab)
      const response = await tab.goto(`${origin}/en/`, { waitUntil: 'networkidle' })
      if (response?.status() !== 200) throw new Error(`/en/ answered ${response?.status()}`)
      const sent = await scriptsSent()
      await context.close()
      if (index > 0) measured.push(sent)
    }
    return { scripts: median(measured.map((m) => m.scripts)), scriptKb: median(measured.map((m) => m.scriptKb)) }
  } finally {
    await browser.close()
  }
}

export function figuresTable(full: KitFigures | undefined, minimal: KitFigures): string {
  const show = (value: number | string | undefined, digits = 0) =>
    value === undefined ? '–' : typeof value === 'string' ? value : value.toFixed(digits)
  const rows: [string, (figures: KitFigures) => string][] = [
    ['source lines (src/)', (f) => show(f.sourceLines)],
    ['dependencies (package.json)', (f) => show(f.dependencies)],
    ['cold start to healthy, embedded (ms, median of 3)', (f) => show(f.coldStartMs)],
    ['landing page scripts (/en/)', (f) => show(f.landingScripts)],
    ['landing page script KB (as sent)', (f) => show(f.landingScriptKb, 1)],
    ['server RSS after the smoke (MB)', (f) => show(f.rssAfterSmokeMb)],
  ]
  const cells = rows.map(([name, pick]) => [name, full ? pick(full) : '–', pick(minimal)])
  const header = ['', 'full kit', 'minimal kit']
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((row) => row[column]?.length ?? 0)))
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join(' | ')} |`
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...cells.map(line)].join('\n')
}
