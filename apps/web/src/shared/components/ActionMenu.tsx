import {
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
} from 'react';
import './ActionMenu.css';

export interface ActionMenuItem {
  label: string;
  onSelect: () => void;
  icon?: ReactNode;
  /** Destructive actions show in the danger colour. */
  danger?: boolean;
  /** Set for a choice among options (a radio menu item); leave undefined for plain actions. */
  checked?: boolean;
}

export interface ActionMenuProps {
  /** Accessible name of the trigger button (and of the menu). */
  label: string;
  /** Content of the trigger button: an icon, or a short text. */
  trigger: ReactNode;
  items: ActionMenuItem[];
  triggerClassName?: string;
  className?: string;
  /** Which edge of the trigger the menu lines up with. */
  align?: 'start' | 'end';
  /** Gives the trigger a visible text label instead of relying on `label` alone. */
  showLabel?: boolean;
}

/** Arrow keys, Home and End move between the items; Escape and Tab close the menu. */
function moveInMenu(
  event: ReactKeyboardEvent<HTMLDivElement>,
  entries: HTMLElement[],
  close: (refocus: boolean) => void,
): void {
  const index = entries.indexOf(document.activeElement as HTMLElement);
  const focusAt = (next: number) => {
    const count = entries.length;
    if (count === 0) return;
    entries[(next + count) % count]?.focus();
  };
  switch (event.key) {
    case 'ArrowDown':
      event.preventDefault();
      focusAt(index + 1);
      break;
    case 'ArrowUp':
      event.preventDefault();
      focusAt(index - 1);
      break;
    case 'Home':
      event.preventDefault();
      focusAt(0);
      break;
    case 'End':
      event.preventDefault();
      focusAt(entries.length - 1);
      break;
    case 'Escape':
      event.preventDefault();
      event.stopPropagation();
      close(true);
      break;
    case 'Tab':
      close(false);
      break;
  }
}

function MenuItemButton({ item, onChoose }: { item: ActionMenuItem; onChoose: () => void }) {
  return (
    <button
      type="button"
      role={item.checked === undefined ? 'menuitem' : 'menuitemradio'}
      aria-checked={item.checked}
      tabIndex={-1}
      data-menu-item=""
      className={[
        'action-menu__item',
        item.danger && 'action-menu__item--danger',
        item.checked && 'action-menu__item--checked',
      ]
        .filter(Boolean)
        .join(' ')}
      onClick={onChoose}
    >
      {item.icon}
      <span>{item.label}</span>
    </button>
  );
}

/**
 * A button opening a small menu. Arrow keys, Home and End move between items; Escape (or a
 * click anywhere else, or Tab) closes it; choosing an item closes it and returns focus to the
 * button.
 */
export function ActionMenu({
  label,
  trigger,
  items,
  triggerClassName = 'icon-btn',
  className,
  align = 'end',
  showLabel = false,
}: ActionMenuProps) {
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const triggerId = useId();

  const menuItems = () =>
    Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[data-menu-item]') ?? []);

  useEffect(() => {
    if (!open) return;
    const entries = Array.from(
      menuRef.current?.querySelectorAll<HTMLElement>('[data-menu-item]') ?? [],
    );
    const checked = entries.find((item) => item.getAttribute('aria-checked') === 'true');
    (checked ?? entries[0])?.focus();

    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && containerRef.current?.contains(event.target)) return;
      setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) triggerRef.current?.focus();
  };

  const onMenuKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    moveInMenu(event, menuItems(), close);
  };

  return (
    <div
      ref={containerRef}
      className={['action-menu', open && 'action-menu--open', className].filter(Boolean).join(' ')}
    >
      <button
        ref={triggerRef}
        id={triggerId}
        type="button"
        className={triggerClassName}
        aria-label={showLabel ? undefined : label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => {
          setOpen((value) => !value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        {trigger}
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-labelledby={triggerId}
          className={`action-menu__list action-menu__list--${align}`}
          onKeyDown={onMenuKeyDown}
        >
          {items.map((item) => (
            <MenuItemButton
              key={item.label}
              item={item}
              onChoose={() => {
                close(true);
                item.onSelect();
              }}
            />
          ))}
        </div>
      )}
    </div>
  );
}
