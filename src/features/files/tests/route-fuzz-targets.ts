// The files' upload routes for the fuzzer (tests/fuzz/api-routes.test.ts): hostile bodies and book ids.
import fc from 'fast-check'
import { addBook } from '#/features/books/server'
import { encoded, hostileText } from '../../../../tests/fuzz/arbitraries'
import type { RouteFuzzContext, RouteFuzzTarget } from '../../../../tests/fuzz/route-targets'
import { answerBookFileUpload } from '../server/book-files'

export function routeFuzzTargets({ db, organization }: RouteFuzzContext): RouteFuzzTarget[] {
  // A book of the fuzzer's organization, so the uploads are fuzzed past their lookup too.
  let bookId: string | undefined
  const record = async () => {
    bookId ??= await addBook(db(), { ...organization(), title: 'Fuzzed Files' })
    return bookId
  }
  return [
    {
      target: 'POST /api/uploads/books/{book}/cover',
      path: (book) => `/api/uploads/books/${encoded(book)}/cover`,
      methods: ['POST'],
      call: (request, book) => answerBookFileUpload(request, db(), book, 'cover'),
      body: fc.oneof(hostileText, fc.constant('<svg xmlns="http://www.w3.org/2000/svg"/>'), fc.constant('GIF89a')),
      record,
    },
    {
      target: 'POST /api/uploads/books/{book}/attachments?name={text}',
      path: (book) => `/api/uploads/books/${encoded(book)}/attachments?name=${encoded(book)}`,
      methods: ['POST'],
      call: (request, book) => answerBookFileUpload(request, db(), book, 'attachment'),
      body: fc.oneof(hostileText, fc.constant('%PDF-1.7 '), fc.constant('<html><script>x</script></html>')),
      record,
    },
  ]
}
