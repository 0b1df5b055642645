// shadcn's class merger (clsx and tailwind-merge in one engine). fumadocs-ui merges its classes with the same package,
// so a docs page downloads one merger rather than two (docs/decisions/018-first-load-javascript.md).
export { cn } from 'cn'
