import {
  type ComponentType,
  type ReactElement,
  type ReactNode,
  type Ref,
  useEffect,
  useRef,
  useState,
} from 'react'

/** `defaultOpen`: the stand-in was pressed before the chunk arrived, so the popup opens at once. */
export type PopupProps = { defaultOpen: boolean }
export type PopupModule = { default: ComponentType<PopupProps> }

export type StandInHandlers = {
  ref: Ref<HTMLButtonElement>
  onPointerEnter: () => void
  onFocus: () => void
  onPointerDown: () => void
  onClick: () => void
}

/**
 * Interaction-only widgets (menus, popovers: Ark + positioning, tens of KiB) load on the first
 * intent: a plain stand-in trigger shows until the pointer or focus reaches it, and stays (with
 * its focus) until the chunk is here; then the real widget replaces it once. A press before that
 * opens the popup as it arrives; a stand-in that had focus hands it to the real trigger, after
 * the widget's own effects so its state machine sees the focus (keyboard users press Enter next).
 */
export function LazyOnIntent({
  load,
  loaded,
  standIn,
  onPress,
}: {
  load: () => Promise<PopupModule>
  /** Shared across mounts: once the chunk is here, later mounts render the real widget at once. */
  loaded: { current: ComponentType<PopupProps> | null }
  standIn: (handlers: StandInHandlers) => ReactElement
  /** Called on the stand-in's press (pointer down or click). */
  onPress?: () => void
}) {
  const [Popup, setPopup] = useState<ComponentType<PopupProps> | null>(() => loaded.current)
  const [openOnLoad, setOpenOnLoad] = useState(false)
  const [focusOnLoad, setFocusOnLoad] = useState(false)
  const standInRef = useRef<HTMLButtonElement>(null)
  const requested = useRef(false)
  const want = () => {
    if (requested.current) return
    requested.current = true
    load().then(
      (module) => {
        loaded.current = module.default
        setFocusOnLoad(standInRef.current !== null && document.activeElement === standInRef.current)
        setPopup(() => module.default)
      },
      () => {
        // A failed chunk (offline): the stand-in stays and the next intent tries again.
        requested.current = false
      },
    )
  }
  const press = () => {
    setOpenOnLoad(true)
    want()
    onPress?.()
  }
  if (!Popup)
    return standIn({
      ref: standInRef,
      onPointerEnter: want,
      onFocus: want,
      onPointerDown: press,
      onClick: press,
    })
  return <Loaded popup={Popup} defaultOpen={openOnLoad} focus={focusOnLoad && !openOnLoad} />
}

function Loaded({
  popup: Popup,
  defaultOpen,
  focus,
}: {
  popup: ComponentType<PopupProps>
  defaultOpen: boolean
  focus: boolean
}) {
  const box = useRef<HTMLSpanElement>(null)
  useEffect(() => {
    // Parents' effects run after their children's: the popup's machine is listening by now.
    if (focus) box.current?.querySelector<HTMLElement>('button')?.focus()
  }, [focus])
  return (
    <span ref={box} style={{ display: 'contents' }}>
      <Popup defaultOpen={defaultOpen} />
    </span>
  )
}

/** A popup's chunk and, once it has arrived, its component (shared by every mount of the trigger). */
export function popupChunk(load: () => Promise<PopupModule>) {
  return { load, loaded: { current: null as ComponentType<PopupProps> | null } }
}

/** The plain, collapsed trigger that stands in for a menu or dialog popup until its chunk arrives. */
export function StandInButton({
  handlers,
  popup,
  className,
  label,
  children,
}: {
  handlers: StandInHandlers
  popup: 'menu' | 'dialog'
  className: string
  label?: string
  children: ReactNode
}) {
  return (
    <button
      type="button"
      className={className}
      aria-label={label}
      aria-haspopup={popup}
      aria-expanded={false}
      {...handlers}
    >
      {children}
    </button>
  )
}
