import { CheckIcon, CopyIcon } from 'lucide-react'
import { type ComponentProps, useState } from 'react'
import Markdown from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { m } from '#/paraglide/messages'
import { Button } from './ui/button'

/** Copies `text` and says so for a moment; for an answer or a code block. */
export function CopyButton({
  text,
  label,
  className,
}: {
  /** The text, or how to read it at the moment of the click (a block still streaming). */
  text: string | (() => string)
  label: string
  className?: string
}) {
  const [copied, setCopied] = useState(false)
  return (
    <Button
      type="button"
      variant="ghost"
      size="sm"
      className={className}
      onClick={async () => {
        await navigator.clipboard.writeText(typeof text === 'string' ? text : text())
        setCopied(true)
        setTimeout(() => setCopied(false), 1500)
      }}
    >
      {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
      <span aria-live="polite">{copied ? m.assistant_copied() : label}</span>
    </Button>
  )
}

function CodeBlock({ children, node: _, ...props }: ComponentProps<'pre'> & { node?: unknown }) {
  const [element, setElement] = useState<HTMLPreElement | null>(null)
  return (
    <div className="relative">
      <pre ref={setElement} {...props} className="overflow-x-auto rounded-lg border bg-muted p-3 text-sm">
        {children}
      </pre>
      <CopyButton
        text={() => element?.textContent ?? ''}
        label={m.assistant_copy_code()}
        className="absolute top-1 right-1 h-7 bg-muted/90 text-xs"
      />
    </div>
  )
}

/** Links inside the app open in place; others in a new tab, never passing this page on. */
function SafeLink({ href, children, node: _, ...props }: ComponentProps<'a'> & { node?: unknown }) {
  // "//host/path" is another site too.
  const external = href !== undefined && !(href.startsWith('/') && !href.startsWith('//')) && !href.startsWith('#')
  return (
    <a
      href={href}
      {...props}
      {...(external ? { target: '_blank', rel: 'noopener noreferrer nofollow' } : {})}
      className="font-medium text-primary underline underline-offset-4"
    >
      {children}
    </a>
  )
}

/**
 * Text from a model or a person rendered as Markdown (GitHub's flavour: tables, lists, code): never raw HTML, and
 * react-markdown drops javascript: and other unsafe link targets.
 */
export function MarkdownText({ children }: { children: string }) {
  return (
    <div className="prose prose-sm max-w-none break-words dark:prose-invert [&_pre]:my-2 [&_pre_code]:border-0 [&_pre_code]:bg-transparent [&_pre_code]:p-0">
      <Markdown skipHtml remarkPlugins={[remarkGfm]} components={{ pre: CodeBlock, a: SafeLink }}>
        {children}
      </Markdown>
    </div>
  )
}
