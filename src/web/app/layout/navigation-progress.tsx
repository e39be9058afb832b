import { useNavigation } from 'react-router';

/** spec §2 (loading fallback): while the next page's code loads, a bar runs along the top. */
export function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return <div className="navigation-progress" role="progressbar" aria-label="Loading page" />;
}
