import { defaultImages } from '@shared/paths.js';

interface LoadingScreenProps {
  /** `page` fills the viewport (first load); `section` fills the content area (guards, data). */
  variant?: 'page' | 'section';
}

/** spec §1: the loading screen shows the small logo image with the alt text "Loading". */
export function LoadingScreen({ variant = 'section' }: LoadingScreenProps) {
  return (
    <div className={`loading-screen loading-screen--${variant}`} role="status" aria-live="polite">
      <img
        className="loading-screen__logo"
        src={defaultImages.logo}
        alt="Loading"
        width={64}
        height={64}
      />
    </div>
  );
}
