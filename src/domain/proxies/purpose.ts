/** The longest `purpose` a grant may carry, in characters (docs/contract.md §11); apart so the route's schema can say it without the domain's table. */
export const PURPOSE_MAX = 200;
