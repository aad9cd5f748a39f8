import { Icon, type IconProps } from '../../shared/components/icons';

export function AtIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="12" cy="12" r="3.75" />
      <path d="M15.75 8.5v4.75a2.5 2.5 0 0 0 5 0V12a8.75 8.75 0 1 0-3.4 6.9" />
    </Icon>
  );
}

/** Bars of a poll's results. */
export function PollIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M4 6h10M4 12h16M4 18h7" />
    </Icon>
  );
}
