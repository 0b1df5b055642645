import { recordId } from '#/lib/stored-text'
import { z } from '#/lib/zod'

export const bookFilesInput = z.object({ bookId: recordId() })
export const fileIdInput = z.object({ id: recordId() })
