import { Component, type ReactNode } from 'react';

interface State {
  failed: boolean;
}

/**
 * Last line of defence above the router and providers. It renders only static markup because
 * whatever failed may be what the richer error screens depend on.
 */
export class TopLevelErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <main id="main" className="standalone-screen">
        <section className="status-panel status-panel--error" role="alert">
          <h1 className="status-panel__title">Something went wrong</h1>
          <div className="status-panel__body">
            <p>An unexpected error stopped the app. Reloading usually fixes it.</p>
          </div>
          <div className="status-panel__actions">
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                window.location.reload();
              }}
            >
              Reload
            </button>
          </div>
        </section>
      </main>
    );
  }
}
