import { ArrowRightIcon } from 'lucide-react'
import { Button } from '#/components/ui/button'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

export function Hero({ productName }: { productName: string }) {
  return (
    <section className="relative overflow-hidden">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-x-0 -top-40 -z-10 mx-auto h-[28rem] max-w-4xl rounded-full bg-primary/15 blur-3xl"
      />
      <div className="mx-auto flex max-w-4xl flex-col items-center px-4 pt-16 pb-20 text-center sm:px-6 sm:pt-24">
        <span className="rounded-full border bg-background/60 px-3 py-1 text-xs font-medium text-muted-foreground">
          {m.hero_badge()}
        </span>
        <h1 className="mt-6 text-4xl font-bold tracking-tight text-balance sm:text-5xl lg:text-6xl">
          {m.hero_title()}
        </h1>
        <p className="mt-6 max-w-2xl text-lg text-pretty text-muted-foreground">
          {m.hero_subtitle({ product: productName })}
        </p>
        <div className="mt-10 flex w-full flex-col justify-center gap-3 sm:w-auto sm:flex-row">
          <Button size="lg" asChild>
            <a href={localizeHref('/sign-up')}>
              {m.hero_cta_primary()}
              <ArrowRightIcon aria-hidden />
            </a>
          </Button>
          <Button size="lg" variant="outline" asChild>
            <a href={localizeHref('/docs')}>{m.hero_cta_secondary()}</a>
          </Button>
        </div>
      </div>
    </section>
  )
}
