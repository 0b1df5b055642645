import { uploadedPictureKey } from '#/lib/account-rules'

/** The largest upload the avatar endpoint reads; the page shrinks a photo to 512 px before sending it. */
export const avatarBytesMax = 1024 * 1024
/** The sizes stored: the header's and lists' small picture, and the profile's. */
export const avatarSizes = [64, 256] as const
/** What the page sends: the photo drawn on a canvas this large (square), as WebP. */
export const avatarUploadPixels = 512

/** A public file an avatar or a logo is stored as (the same pattern the profile and the logo are checked against). */
export const publicFileKey = uploadedPictureKey
