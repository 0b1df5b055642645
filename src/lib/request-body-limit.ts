/** The production server's limit on a request body outside the upload routes (`answerWithinBodyLimit` in src/server/request-body.ts). */
export const requestBodyBytesMax = 1024 * 1024
