// Asks for a gateway token once; it is kept in this tab's session storage. An error shows only
// after a token was tried: arriving at the page is not a mistake.
import { useState } from 'preact/hooks';
import { setToken } from '../api.js';

export function TokenForm({ message, onToken }: { message?: string; onToken: () => void }) {
  const [value, setValue] = useState('');
  return (
    <form
      class="center card token"
      onSubmit={(e) => {
        e.preventDefault();
        setToken(value.trim());
        onToken();
      }}
    >
      <h1>toolbelt console</h1>
      <p>
        This gateway asks for a token. Enter one with the approve, person or admin role; it stays in this browser tab
        only.
      </p>
      {message && (
        <p class="error" role="alert">
          {message}
        </p>
      )}
      <label>
        Token
        <input
          type="password"
          autoFocus
          autoComplete="off"
          value={value}
          onInput={(e) => setValue(e.currentTarget.value)}
          required
        />
      </label>
      <button type="submit">Sign in</button>
    </form>
  );
}
