import type { PostSort } from '@perch/contract';
import { ActionMenu } from '../../shared/components/ActionMenu';
import { CheckIcon, ChevronDownIcon } from '../../shared/components/postIcons';

export const SORT_OPTIONS: { value: PostSort; label: string }[] = [
  { value: 'trending', label: 'Trending' },
  { value: 'latest', label: 'Latest' },
  { value: 'oldest', label: 'Oldest' },
];

export function sortLabel(sort: PostSort): string {
  return SORT_OPTIONS.find((option) => option.value === sort)?.label ?? 'Latest';
}

interface SortMenuProps {
  value: PostSort;
  onChange: (sort: PostSort) => void;
}

/** The heading above a feed, naming its order, with the menu to change it. */
export function SortMenu({ value, onChange }: SortMenuProps) {
  const label = sortLabel(value);
  return (
    <div className="feed-sort">
      <h2 className="feed-sort__title">{label} Posts</h2>
      <ActionMenu
        label={`Sort posts: ${label}`}
        triggerClassName="feed-sort__trigger"
        trigger={
          <>
            <span>{label}</span>
            <ChevronDownIcon size={18} />
          </>
        }
        items={SORT_OPTIONS.map((option) => ({
          label: option.label,
          checked: option.value === value,
          icon: (
            <CheckIcon
              size={18}
              className="action-menu__check"
              visibility={option.value === value ? 'visible' : 'hidden'}
            />
          ),
          onSelect: () => {
            onChange(option.value);
          },
        }))}
      />
    </div>
  );
}
