// What other features' and apps' servers may use of uploads: answering a stored file's request, and the logo upload
// (an app's tests check that an organization's files go with it).
export { answerFileRequest } from './file-answers'
export { answerLogoUpload } from './image-uploads'
