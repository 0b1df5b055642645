import type { NotFoundRouteProps } from '@tanstack/react-router'
import type { DocsPageInfo } from '../server/page-info'
import { DocsNotFoundScreen } from './docs-screens'

/** The docs layout's not-found screen; the page tree arrives as the not-found's data (load-docs-page.ts). */
export function DocsNotFound({ data }: NotFoundRouteProps) {
  return <DocsNotFoundScreen info={data as DocsPageInfo | undefined} />
}
