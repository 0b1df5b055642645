export { bookWithTitle as book } from '../schemas'
