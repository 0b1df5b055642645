import { EggIcon } from 'lucide-react'

export function Logo({ productName }: { productName: string }) {
  return (
    <span className="flex items-center gap-2 font-semibold tracking-tight">
      <span className="flex size-7 items-center justify-center rounded-md bg-primary text-primary-foreground">
        <EggIcon className="size-4" aria-hidden />
      </span>
      <span className="text-base">{productName}</span>
    </span>
  )
}
