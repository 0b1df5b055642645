import { listPageMax } from './list-paging'
import { z } from './zod'

/** A list procedure's page number; messages are translation keys. */
export const listPageNumber = z
  .number('validation_list_page_invalid')
  .int('validation_list_page_invalid')
  .min(1, 'validation_list_page_invalid')
  .max(listPageMax, 'validation_list_page_invalid')
