'use client';
import { Component, Fragment, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** Names the panel in the placeholder and the log line. */
  name: string;
  /** How long a crashed panel rests before it is mounted again. */
  retryAfterMs?: number;
  children: ReactNode;
  className?: string;
}

interface State {
  failed: boolean;
  /** Bumped on each retry so the children mount afresh rather than resume a broken state. */
  attempt: number;
}

/**
 * Keeps one crashed panel from taking the wall down: it is replaced by a quiet placeholder and mounted again
 * after a pause, for as long as the wall runs. React has no hook for error boundaries; a class it is.
 */
export class PanelBoundary extends Component<Props, State> {
  override state: State = { failed: false, attempt: 0 };
  private timer: ReturnType<typeof setTimeout> | null = null;

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  override componentDidCatch(error: Error, _info: ErrorInfo) {
    console.warn(`wall panel "${this.props.name}" failed; retrying`, error.message);
    this.schedule();
  }

  override componentWillUnmount() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.setState((s) => ({ failed: false, attempt: s.attempt + 1 }));
    }, this.props.retryAfterMs ?? 15_000);
  }

  override render() {
    if (this.state.failed) {
      return (
        <div role="status" aria-label={`${this.props.name} resting`} className={`flex items-center justify-center text-lg text-slate-600 dark:text-slate-400 ${this.props.className ?? ''}`}>
          {this.props.name} will be back shortly
        </div>
      );
    }
    return <Fragment key={this.state.attempt}>{this.props.children}</Fragment>;
  }
}

