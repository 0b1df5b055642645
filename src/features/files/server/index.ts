// What other features' servers may use of files (nothing here imports auth: the organization plugin imports it).
export { bookCoverImages, type CoverImage } from './book-covers'
export { deleteAccountFiles, deleteOrganizationFiles } from './file-jobs'
