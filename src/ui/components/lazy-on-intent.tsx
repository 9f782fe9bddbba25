import {
  type ComponentType,
  type LazyExoticComponent,
  type ReactElement,
  Suspense,
  useRef,
  useState,
} from 'react'

/** `autoFocus`: the stand-in had focus, so the real trigger takes it — unless the popup opens at
 * once, when focus belongs inside it (moving it to the trigger would close the popup). */
export type PopupProps = { defaultOpen: boolean; autoFocus: boolean }

export type StandInHandlers = {
  onPointerEnter: () => void
  onFocus: () => void
  onPointerDown: () => void
  onClick: () => void
}

/**
 * Interaction-only widgets (menus, popovers: Ark + positioning, tens of KiB) load on the first
 * intent: a plain stand-in trigger shows until the pointer or focus reaches it; a press before the
 * chunk arrives opens the popup once it does, and focus moves to the real trigger.
 */
export function LazyOnIntent({
  popup: Popup,
  loaded,
  standIn,
  onPress,
}: {
  popup: LazyExoticComponent<ComponentType<PopupProps>>
  /** Shared across mounts: once the chunk is here, later mounts render the real widget at once. */
  loaded: { current: boolean }
  standIn: (handlers: StandInHandlers) => ReactElement
  /** Called on the stand-in's press (pointer down or click; the stand-in may be replaced in between). */
  onPress?: () => void
}) {
  const [wanted, setWanted] = useState(loaded.current)
  const [openOnLoad, setOpenOnLoad] = useState(false)
  const hadFocus = useRef(false)
  const press = () => {
    setOpenOnLoad(true)
    setWanted(true)
    onPress?.()
  }
  const trigger = standIn({
    onPointerEnter: () => setWanted(true),
    onFocus: () => {
      hadFocus.current = true
      setWanted(true)
    },
    onPointerDown: press,
    onClick: press,
  })
  if (!wanted) return trigger
  return (
    <Suspense fallback={trigger}>
      <Loaded popup={Popup} loaded={loaded} defaultOpen={openOnLoad} autoFocus={hadFocus.current} />
    </Suspense>
  )
}

function Loaded({
  popup: Popup,
  loaded,
  ...props
}: PopupProps & { popup: ComponentType<PopupProps>; loaded: { current: boolean } }) {
  loaded.current = true
  return <Popup {...props} />
}
