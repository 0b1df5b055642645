// How a first visit's JavaScript is counted, shared by the first-load bench (bench/first-load.ts) and the minimal
// kit's figures (scripts/minimal-kit/figures.ts): every script the page requests, by the size of its body as sent.
import type { Page } from '@playwright/test'

/** Starts counting the page's scripts; the function it returns gives their number and KB once the visit is over. */
export function countScripts(tab: Page): () => Promise<{ scripts: number; scriptKb: number }> {
  const sizes: Promise<number>[] = []
  tab.on('requestfinished', (request) => {
    if (request.resourceType() === 'script') sizes.push(request.sizes().then((size) => size.responseBodySize))
  })
  return async () => {
    const bytes = await Promise.all(sizes)
    return { scripts: bytes.length, scriptKb: bytes.reduce((sum, size) => sum + size, 0) / 1024 }
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}
