import { describe, expect, it } from 'vitest'
import { compactIsbn, isValidIsbn, toIsbn13 } from '#/features/books/isbn'
import { bookInput } from '#/features/books/schemas'
import { splitList } from '#/lib/entity'

describe('ISBNs', () => {
  it.each([
    ['978-0-306-40615-7', true],
    ['0-306-40615-2', true],
    ['0 8044 2957 X', true],
    ['080442957x', true],
    ['978-7-02-000220-7', true],
    ['978-0-306-40615-8', false],
    ['0-306-40615-3', false],
    ['977-0-306-40615-7', false],
    ['12345', false],
    ['X804429570', false],
  ])('%s is %s', (typed, valid) => {
    expect(isValidIsbn(compactIsbn(typed))).toBe(valid)
  })

  it('turns an ISBN-10 into the ISBN-13 of the same edition', () => {
    expect(toIsbn13('0306406152')).toBe('9780306406157')
    expect(toIsbn13('080442957X')).toBe('9780804429573')
    expect(toIsbn13('9787020002207')).toBe('9787020002207')
  })
})

describe('the book schema', () => {
  it('reads lists typed with English or Chinese commas, trimmed and without repeats', () => {
    expect(splitList(' Ada , Grace,,ada、曹雪芹，罗贯中 ')).toEqual(['Ada', 'Grace', '曹雪芹', '罗贯中'])
  })

  it('reads a form’s text fields into a book', () => {
    const parsed = bookInput.parse({
      title: '  红楼梦 ',
      authors: '曹雪芹, 高鹗',
      isbn: '978-7-02-000220-7',
      publishedYear: '1982',
      language: 'ZH',
      tags: 'classic',
      coverUrl: '',
      description: ' A novel. ',
    })
    expect(parsed).toEqual({
      title: '红楼梦',
      authors: ['曹雪芹', '高鹗'],
      isbn: '9787020002207',
      publishedYear: 1982,
      language: 'zh',
      tags: ['classic'],
      coverUrl: null,
      description: 'A novel.',
    })
  })

  it('refuses a year that is not a whole number', () => {
    const result = bookInput.safeParse({
      title: 'T',
      authors: '',
      isbn: '',
      publishedYear: '19.5',
      language: '',
      tags: '',
      coverUrl: '',
      description: '',
    })
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['validation_year_invalid'])
  })
})
