import { useEffect, useState } from 'react'
import { css } from 'styled-system/css'

/**
 * A small picture of a receipt photo: an object URL of the file, made while the thumbnail shows
 * and revoked when it goes (its row left the list, or the list closed).
 */
export function PhotoThumbnail({ photo, size = '10' }: { photo: File; size?: '8' | '10' }) {
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    const made = URL.createObjectURL(photo)
    setUrl(made)
    return () => URL.revokeObjectURL(made)
  }, [photo])
  return url ? (
    <img
      src={url}
      alt=""
      data-thumbnail
      className={css({
        w: size,
        h: size,
        flexShrink: 0,
        objectFit: 'cover',
        borderRadius: 'sm',
        borderWidth: '1px',
        borderColor: 'border.default',
      })}
    />
  ) : null
}
