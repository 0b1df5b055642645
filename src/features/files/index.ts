// What other features may use of files in the browser: the picture and logo pickers, a book's cover and attachments.
export { BookAttachments } from './components/book-attachments'
export { BookCoverActions } from './components/book-cover-actions'
export { AvatarPicker, LogoPicker } from './components/square-picture-picker'
