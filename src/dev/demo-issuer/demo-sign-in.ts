// The demo's sign-in step: a page listing the demo people, where typing or picking one signs them in
// with no password. The region's login takes its place in production (docs/sign-in.md).
import type { SignInStep } from '../../adapters/auth-server/interactions.js';
import { findDemoPerson } from './demo-persons.js';
import { DEMO_BANNER, loginPage, loginProblem } from './demo-login-page.js';

export const demoSignIn: SignInStep = {
  banner: DEMO_BANNER,
  async login(provider, req, res, _details, submitUrl, view, form) {
    const input = { submitUrl, appName: view.appName, csrf: view.formToken };
    if (form === undefined) return view.send(res, 200, loginPage(view.frame, input));
    const typed = form.get('login') ?? '';
    const problem = loginProblem(typed, view.frame.lang);
    if (problem !== undefined) return view.send(res, 200, loginPage(view.frame, { ...input, error: problem }));
    const person = findDemoPerson(typed.replace(/[\s-]/g, ''));
    return provider.interactionFinished(req, res, { login: { accountId: person?.identityNumber ?? '' } }, { mergeWithLastSubmission: false });
  },
};
