import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Files that take minutes of one worker's time, longest first. Vitest orders files by the durations of its last run,
 * and a fresh clone (CI) has none: it falls back to the largest files first, which started the app removals (15
 * minutes of copies and type checks) half-way through, so that they ran alone for the last third of the run. Started
 * first, they run beside everything else.
 */
const longestFiles = [
  'tests/integration/app-removal.test.ts',
  'tests/integration/app-generator.test.ts',
  'tests/fuzz/api-routes.test.ts',
  'tests/fuzz/trpc-procedures.test.ts',
]

function rank(spec: TestSpecification): number {
  const index = longestFiles.findIndex((file) => spec.moduleId.endsWith(file))
  return index === -1 ? longestFiles.length : index
}

/** Vitest's own order, with the files known to be longest moved to its front. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    return sorted
      .map((spec, index) => ({ spec, index, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.index - b.index)
      .map(({ spec }) => spec)
  }
}
