import { ChevronDownIcon } from 'lucide-react'
import { landingApps } from '#/landing-apps.gen'
import { m } from '#/paraglide/messages'

/** The core's questions, the installed apps' (can I change the prices?), then how to deploy. */
const questions = [
  { question: m.faq_1_question, answer: m.faq_1_answer },
  { question: m.faq_2_question, answer: m.faq_2_answer },
  { question: m.faq_3_question, answer: m.faq_3_answer },
  ...landingApps.flatMap((app) => app.questions ?? []),
  { question: m.faq_5_question, answer: m.faq_5_answer },
]

export function Faq() {
  return (
    <section id="faq" aria-labelledby="faq-title" className="border-t py-20">
      <div className="mx-auto max-w-3xl px-4 sm:px-6">
        <h2 id="faq-title" className="text-center text-3xl font-bold tracking-tight">
          {m.faq_title()}
        </h2>
        <div className="mt-10 divide-y rounded-xl border">
          {questions.map((item) => (
            <details key={item.question()} className="group px-5 [&_summary::-webkit-details-marker]:hidden">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 py-4 font-medium outline-none focus-visible:underline">
                {item.question()}
                <ChevronDownIcon
                  className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-180"
                  aria-hidden
                />
              </summary>
              <p className="pb-4 text-muted-foreground">{item.answer()}</p>
            </details>
          ))}
        </div>
      </div>
    </section>
  )
}
