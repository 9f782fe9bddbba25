import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'

/**
 * Shown only when no message catalog could be loaded at all, so it cannot go through Lingui:
 * it says the same thing in both languages.
 */
export function LanguageFailedView({ onRetry }: { onRetry: () => void }) {
  return (
    <main
      role="alert"
      className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', px: '4', textAlign: 'center' })}
    >
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '3', alignItems: 'center' })}>
        <p lang="en">The application could not be loaded. Check your connection and try again.</p>
        <p lang="fr">L’application n’a pas pu être chargée. Vérifiez votre connexion et réessayez.</p>
        <button type="button" className={button({})} onClick={onRetry}>
          Retry / Réessayer
        </button>
      </div>
    </main>
  )
}
