import { useEffect } from 'react';
import { useInstanceName } from '@web/features/instance/api/get-instance.js';

/** Sets the tab title to "{page} · {instance name}" (or just the instance name). */
export function usePageTitle(page: string | null): void {
  const instanceName = useInstanceName();
  const title = page ? `${page} · ${instanceName}` : instanceName;
  useEffect(() => {
    document.title = title;
  }, [title]);
}
