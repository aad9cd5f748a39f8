import { useRef, type KeyboardEvent } from 'react';
import './Tabs.css';

export interface TabItem<T extends string> {
  value: T;
  label: string;
}

interface TabsProps<T extends string> {
  /** Accessible name of the tab list. */
  label: string;
  items: readonly TabItem<T>[];
  selected: T;
  onSelect: (value: T) => void;
  /** Prefix of the tab and panel ids (see {@link tabId} and {@link tabPanelId}). */
  idBase: string;
}

export function tabId(idBase: string, value: string): string {
  return `${idBase}-tab-${value}`;
}

export function tabPanelId(idBase: string, value: string): string {
  return `${idBase}-panel-${value}`;
}

/**
 * A WAI-ARIA tab list: one tab stop (the selected tab); arrow keys, Home and End move to
 * another tab and select it at once (the panels are cheap to show). The caller renders each
 * panel with `role="tabpanel"`, `id={tabPanelId(…)}` and `aria-labelledby={tabId(…)}`.
 */
export function Tabs<T extends string>({ label, items, selected, onSelect, idBase }: TabsProps<T>) {
  const tabsRef = useRef(new Map<T, HTMLButtonElement>());

  const handleKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = items.length - 1;
    let next: number;
    switch (event.key) {
      case 'ArrowRight':
        next = index === last ? 0 : index + 1;
        break;
      case 'ArrowLeft':
        next = index === 0 ? last : index - 1;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = last;
        break;
      default:
        return;
    }
    event.preventDefault();
    const item = items[next];
    if (!item) return;
    tabsRef.current.get(item.value)?.focus();
    onSelect(item.value);
  };

  return (
    <div role="tablist" aria-label={label} className="tabs">
      {items.map((item, index) => {
        const isSelected = item.value === selected;
        return (
          <button
            key={item.value}
            ref={(element) => {
              if (element) tabsRef.current.set(item.value, element);
              else tabsRef.current.delete(item.value);
            }}
            type="button"
            role="tab"
            id={tabId(idBase, item.value)}
            aria-selected={isSelected}
            aria-controls={tabPanelId(idBase, item.value)}
            tabIndex={isSelected ? 0 : -1}
            className="tabs__tab"
            onClick={() => {
              onSelect(item.value);
            }}
            onKeyDown={(event) => {
              handleKeyDown(event, index);
            }}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}
