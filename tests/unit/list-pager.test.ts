import { describe, expect, it } from 'vitest'
import { pageNumbersAround } from '#/components/list-pager'
import { pageCountOf, pageOf } from '#/lib/list-paging'

describe('list paging', () => {
  it('offers every page when there are few, and the ends and neighbours when there are many', () => {
    expect(pageNumbersAround(1, 1)).toEqual([1])
    expect(pageNumbersAround(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(pageNumbersAround(1, 80)).toEqual([1, 2, 3, 4, 5, 'gap', 80])
    expect(pageNumbersAround(40, 80)).toEqual([1, 'gap', 39, 40, 41, 'gap', 80])
    expect(pageNumbersAround(80, 80)).toEqual([1, 'gap', 76, 77, 78, 79, 80])
    expect(pageNumbersAround(4, 8)).toEqual([1, 2, 3, 4, 5, 'gap', 8])
    expect(pageNumbersAround(5, 8)).toEqual([1, 'gap', 4, 5, 6, 7, 8])
  })

  it('never offers more than seven places, so the row does not wrap', () => {
    for (let pages = 1; pages <= 30; pages++) {
      for (let page = 1; page <= pages; page++) {
        const shown = pageNumbersAround(page, pages)
        expect(shown.length, `${page} of ${pages}`).toBeLessThanOrEqual(7)
        expect(shown, `${page} of ${pages}`).toContain(page)
        expect(shown[0]).toBe(1)
        expect(shown.at(-1)).toBe(pages)
        shown.forEach((item, index) => {
          const [before, after] = [shown[index - 1], shown[index + 1]]
          if (item === 'gap') expect(Number(after) - Number(before), 'a gap hides two pages or more').toBeGreaterThan(2)
        })
      }
    }
  })

  it('reads the page and a size it offers from the address, and counts at least one page', () => {
    expect(pageOf({}, 25)).toEqual({ page: 1, limit: 25 })
    expect(pageOf({ page: 4, size: 100 }, 25)).toEqual({ page: 4, limit: 100 })
    expect(pageOf({ size: 30 as 25 }, 10)).toEqual({ page: 1, limit: 10 })
    expect(pageCountOf(0, 25)).toBe(1)
    expect(pageCountOf(50, 25)).toBe(2)
    expect(pageCountOf(51, 25)).toBe(3)
  })
})
