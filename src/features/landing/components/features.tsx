import { BookOpenIcon, DatabaseIcon, KeyRoundIcon, UsersIcon, ZapIcon } from 'lucide-react'
import { landingApps } from '#/landing-apps.gen'
import { m } from '#/paraglide/messages'

const features = [
  { icon: ZapIcon, title: m.feature_ssr_title, body: m.feature_ssr_body },
  { icon: KeyRoundIcon, title: m.feature_auth_title, body: m.feature_auth_body },
  { icon: UsersIcon, title: m.feature_orgs_title, body: m.feature_orgs_body },
  ...landingApps.flatMap((app) => app.features ?? []),
  { icon: BookOpenIcon, title: m.feature_docs_title, body: m.feature_docs_body },
  { icon: DatabaseIcon, title: m.feature_data_title, body: m.feature_data_body },
]

export function Features() {
  return (
    <section id="features" aria-labelledby="features-title" className="border-t bg-muted/40 py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id="features-title" className="text-3xl font-bold tracking-tight text-balance">
            {m.features_title()}
          </h2>
          <p className="mt-4 text-pretty text-muted-foreground">{m.features_subtitle()}</p>
        </div>
        <ul className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {features.map((feature) => (
            <li key={feature.title()} className="rounded-xl border bg-card p-6 text-card-foreground shadow-xs">
              <feature.icon className="size-6 text-primary" aria-hidden />
              <h3 className="mt-4 font-semibold">{feature.title()}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{feature.body()}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
