import { EggIcon } from 'lucide-react'

/** The mark and, unless `markOnly`, the product name; used by every layout. */
export function Logo({ productName, markOnly = false }: { productName: string; markOnly?: boolean }) {
  return (
    <span className="flex items-center gap-2 font-semibold tracking-tight">
      <span className="flex size-7 items-center justify-center rounded-md bg-primary text-primary-foreground">
        <EggIcon className="size-4" aria-hidden />
      </span>
      {markOnly ? <span className="sr-only">{productName}</span> : <span className="text-base">{productName}</span>}
    </span>
  )
}
