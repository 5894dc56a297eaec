// An error boundary: what is inside it failing to render (or failing in an effect, as a diff drawn
// into the page can) shows its fallback instead, and nothing outside it is touched. Each approval
// card has one, and so does each card's preview: one card's error never blanks another.
import { Component, type ComponentChildren } from 'preact';

interface Props {
  fallback(error: Error): ComponentChildren;
  onError?(error: Error): void;
  children: ComponentChildren;
}

export class Boundary extends Component<Props, { error?: Error }> {
  override state: { error?: Error } = {};

  static override getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown): void {
    this.props.onError?.(error instanceof Error ? error : new Error(String(error)));
  }

  render() {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children;
  }
}
