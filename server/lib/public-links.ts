/** What links need to know of an organization: its custom domain, when it has one. */
export interface LinkOwner {
  domain?: string | null;
}

/**
 * Links that leave the API for participants. An organization with a custom domain gets links on
 * that domain (always HTTPS: the operator points it at this service behind TLS); others get
 * PUBLIC_URL.
 */
export class PublicLinks {
  constructor(private readonly publicUrl: string) {}

  originFor(owner: LinkOwner): string {
    return owner.domain ? `https://${owner.domain}` : this.publicUrl;
  }

  /** The participant interview page for an invite token. */
  inviteUrl(owner: LinkOwner, token: string): string {
    return `${this.originFor(owner)}/interview/${token}`;
  }

  shareLinkUrl(owner: LinkOwner, code: string): string {
    return `${this.originFor(owner)}/join/${code}`;
  }

  /**
   * A stakeholder link's page: always PUBLIC_URL, where the dashboard is served (custom domains
   * serve participants).
   */
  stakeholderLinkUrl(token: string): string {
    return `${this.publicUrl}/shared/${token}`;
  }

  /** Where an invited member sets a password: always PUBLIC_URL (custom domains serve participants). */
  memberInvitationUrl(token: string): string {
    return `${this.publicUrl}/members/accept?token=${encodeURIComponent(token)}`;
  }
}
