interface SubmitButtonProps {
  busy: boolean;
  label: string;
  busyLabel: string;
}

/** The form's primary button: disabled and relabelled while the request runs. */
export function SubmitButton({ busy, label, busyLabel }: SubmitButtonProps) {
  return (
    <button
      type="submit"
      className="button button--primary button--block"
      disabled={busy}
      aria-busy={busy}
    >
      {busy ? (
        <>
          <span className="spinner" aria-hidden="true" />
          {busyLabel}
        </>
      ) : (
        label
      )}
    </button>
  );
}
