import { LayoutDashboardIcon } from 'lucide-react'
import { EmptyState } from '#/components/empty-state'
import { PageHeader } from '#/components/page-header'
import { m } from '#/paraglide/messages'

const sections = {
  dashboard: {
    icon: LayoutDashboardIcon,
    title: m.console_dashboard,
    description: m.console_dashboard_description,
    emptyTitle: m.console_dashboard_empty_title,
    empty: m.console_dashboard_empty,
  },
}

/** A console section whose screens arrive with a later release: it says what will be here, and shows nothing made up. */
export function UpcomingSection({ section }: { section: keyof typeof sections }) {
  const { icon, title, description, emptyTitle, empty } = sections[section]
  return (
    <div className="max-w-4xl">
      <PageHeader title={title()} description={description()} />
      <EmptyState icon={icon} title={emptyTitle()}>
        {empty()}
      </EmptyState>
    </div>
  )
}
