// What an app's section of Console → System may use (docs/decisions/042): the row of one thing that failed, with its
// button to try again.

export { RetryItem } from './components/retry-item'
