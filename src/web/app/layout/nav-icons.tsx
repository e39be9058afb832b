import type { ReactNode } from 'react';

/** The main navigation's icons: decorative, each beside (or, on phones, above) its visible label. */
function NavIcon({ children }: { children: ReactNode }) {
  return (
    <svg
      className="main-nav__icon"
      viewBox="0 0 24 24"
      width="24"
      height="24"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {children}
    </svg>
  );
}

export function HomeIcon() {
  return (
    <NavIcon>
      <path d="M3 10.5 12 3l9 7.5" />
      <path d="M5 9v11h5v-6h4v6h5V9" />
    </NavIcon>
  );
}

export function SearchIcon() {
  return (
    <NavIcon>
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-4-4" />
    </NavIcon>
  );
}

export function BellIcon() {
  return (
    <NavIcon>
      <path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4l2-2Z" />
      <path d="M10 20a2 2 0 0 0 4 0" />
    </NavIcon>
  );
}

export function PersonIcon() {
  return (
    <NavIcon>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21a8 8 0 0 1 16 0" />
    </NavIcon>
  );
}

export function PenIcon() {
  return (
    <NavIcon>
      <path d="M4 20h4L19 9a2.8 2.8 0 0 0-4-4L4 16v4Z" />
      <path d="m13.5 6.5 4 4" />
    </NavIcon>
  );
}

export function ShieldIcon() {
  return (
    <NavIcon>
      <path d="M12 3 5 6v5c0 4.5 3 8 7 10 4-2 7-5.5 7-10V6l-7-3Z" />
      <path d="m9 12 2 2 4-4" />
    </NavIcon>
  );
}
