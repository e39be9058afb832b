interface BusyLabelProps {
  busy: boolean;
  label: string;
  busyLabel: string;
}

/** A button's words; while its request runs, a spinner and what is happening ("Deleting…"). */
export function BusyLabel({ busy, label, busyLabel }: BusyLabelProps) {
  if (!busy) return label;
  return (
    <>
      <span className="spinner" aria-hidden="true" />
      {busyLabel}
    </>
  );
}
