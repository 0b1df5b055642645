import { Callout } from 'fumadocs-ui/components/callout'
import { Card, Cards } from 'fumadocs-ui/components/card'
import { Step, Steps } from 'fumadocs-ui/components/steps'
import { Tab, Tabs } from 'fumadocs-ui/components/tabs'
import defaultMdxComponents from 'fumadocs-ui/mdx'
import type { MDXComponents } from 'mdx/types'
import { PlansTable } from './plans-table'

/** What docs pages may use without importing anything (see /docs/docs-and-i18n). */
export const mdxComponents: MDXComponents = {
  ...defaultMdxComponents,
  Callout,
  Card,
  Cards,
  PlansTable,
  Step,
  Steps,
  Tab,
  Tabs,
}
