import { type FormEvent, useState } from 'react';
import { useAuth } from '../auth';
import { problemOf } from '../trpc';
import { ErrorNote } from '../ui';

interface OrganizationChoice {
  id: string;
  name: string;
}

export function SignInView() {
  const { signIn } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [organizations, setOrganizations] = useState<OrganizationChoice[] | null>(null);
  const [organizationId, setOrganizationId] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn({ email, password, ...(organizationId ? { organizationId } : {}) });
    } catch (caught) {
      const problem = problemOf(caught);
      // The email belongs to several organizations: the server names them once the password proved itself.
      const choices = problem.details.organizations as OrganizationChoice[] | undefined;
      if (Array.isArray(choices) && choices.length > 0) {
        setOrganizations(choices);
        setOrganizationId(choices[0]!.id);
      } else {
        setError(caught);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="signin">
      <h1>Sign in to the research dashboard</h1>
      <form onSubmit={(event) => void submit(event)} aria-describedby={error ? 'signin-error' : undefined}>
        <label htmlFor="email">Email</label>
        <input id="email" type="email" autoComplete="username" required value={email} onChange={(event) => setEmail(event.target.value)} />
        <label htmlFor="password">Password</label>
        <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(event) => setPassword(event.target.value)} />
        {organizations && (
          <fieldset>
            <legend>This email belongs to several organizations. Which one?</legend>
            {organizations.map((organization) => (
              <label key={organization.id} className="choice">
                <input
                  type="radio"
                  name="organization"
                  value={organization.id}
                  checked={organizationId === organization.id}
                  onChange={() => setOrganizationId(organization.id)}
                />{' '}
                {organization.name}
              </label>
            ))}
          </fieldset>
        )}
        <div id="signin-error">
          <ErrorNote error={error} />
        </div>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : organizations ? 'Continue' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
