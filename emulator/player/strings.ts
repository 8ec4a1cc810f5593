/**
 * The player's fixed strings, one table for the service's locales
 * (docs/service.md 2.2: metadata.locale is the player's UI language). The
 * type makes every locale carry every string. Values from a flow or a request
 * are never mixed in here: pages place them beside these strings, escaped.
 */
import { SERVICE_LOCALES, type Locale } from "@flowsmith/runtime";

export interface PlayerStrings {
  readonly emulated: string;
  readonly flow: string;
  readonly version: string;
  readonly subject: string;
  readonly codeLabel: string;
  readonly submitCode: string;
  readonly resendCode: string;
  readonly attemptsLeft: string;
  readonly testCode: string;
  readonly shortcuts: string;
  readonly accept: string;
  readonly reject: string;
  readonly waiting: string;
  readonly codeRejected: string;
  readonly codeSent: string;
  readonly invalidCode: string;
  readonly stale: string;
  readonly notReady: string;
  readonly doneTitle: string;
  readonly endedTitle: string;
  readonly closeHint: string;
  readonly decision: string;
  readonly accepted: string;
  readonly rejected: string;
  readonly returnLink: string;
}

export const PLAYER_STRINGS: Readonly<Record<Locale, PlayerStrings>> = {
  en: {
    emulated: "Emulated player (flowsmith)",
    flow: "Flow",
    version: "Version",
    subject: "Subject",
    codeLabel: "Enter the six-digit code",
    submitCode: "Verify",
    resendCode: "Send a new code",
    attemptsLeft: "Attempts left",
    testCode: "Emulator test code",
    shortcuts: "Tester shortcuts",
    accept: "Accept",
    reject: "Reject",
    waiting: "Preparing the verification. This page refreshes by itself.",
    codeRejected: "Wrong code.",
    codeSent: "A new code has been sent.",
    invalidCode: "The code must be exactly six digits.",
    stale: "This step changed in the meantime. Please try again.",
    notReady: "The verification is not ready yet. Please wait.",
    doneTitle: "Verification complete",
    endedTitle: "This session has ended",
    closeHint: "You can close this window.",
    decision: "Decision",
    accepted: "Accepted",
    rejected: "Rejected",
    returnLink: "Return to the website",
  },
  de: {
    emulated: "Emulierter Player (flowsmith)",
    flow: "Ablauf",
    version: "Version",
    subject: "Referenz",
    codeLabel: "Sechsstelligen Code eingeben",
    submitCode: "Bestätigen",
    resendCode: "Neuen Code senden",
    attemptsLeft: "Verbleibende Versuche",
    testCode: "Testcode des Emulators",
    shortcuts: "Abkürzungen für Tests",
    accept: "Akzeptieren",
    reject: "Ablehnen",
    waiting: "Die Prüfung wird vorbereitet. Diese Seite aktualisiert sich selbst.",
    codeRejected: "Falscher Code.",
    codeSent: "Ein neuer Code wurde gesendet.",
    invalidCode: "Der Code muss genau sechs Ziffern haben.",
    stale: "Dieser Schritt hat sich inzwischen geändert. Bitte erneut versuchen.",
    notReady: "Die Prüfung ist noch nicht bereit. Bitte warten.",
    doneTitle: "Prüfung abgeschlossen",
    endedTitle: "Diese Sitzung ist beendet",
    closeHint: "Sie können dieses Fenster schließen.",
    decision: "Entscheidung",
    accepted: "Akzeptiert",
    rejected: "Abgelehnt",
    returnLink: "Zurück zur Website",
  },
  fr: {
    emulated: "Lecteur émulé (flowsmith)",
    flow: "Parcours",
    version: "Version",
    subject: "Référence",
    codeLabel: "Saisissez le code à six chiffres",
    submitCode: "Valider",
    resendCode: "Envoyer un nouveau code",
    attemptsLeft: "Essais restants",
    testCode: "Code de test de l'émulateur",
    shortcuts: "Raccourcis de test",
    accept: "Accepter",
    reject: "Refuser",
    waiting: "Préparation de la vérification. Cette page s'actualise d'elle-même.",
    codeRejected: "Code incorrect.",
    codeSent: "Un nouveau code a été envoyé.",
    invalidCode: "Le code doit comporter exactement six chiffres.",
    stale: "Cette étape a changé entre-temps. Veuillez réessayer.",
    notReady: "La vérification n'est pas encore prête. Veuillez patienter.",
    doneTitle: "Vérification terminée",
    endedTitle: "Cette session est terminée",
    closeHint: "Vous pouvez fermer cette fenêtre.",
    decision: "Décision",
    accepted: "Acceptée",
    rejected: "Refusée",
    returnLink: "Retour au site",
  },
  pl: {
    emulated: "Emulowany odtwarzacz (flowsmith)",
    flow: "Proces",
    version: "Wersja",
    subject: "Identyfikator",
    codeLabel: "Wpisz sześciocyfrowy kod",
    submitCode: "Potwierdź",
    resendCode: "Wyślij nowy kod",
    attemptsLeft: "Pozostałe próby",
    testCode: "Kod testowy emulatora",
    shortcuts: "Skróty testowe",
    accept: "Akceptuj",
    reject: "Odrzuć",
    waiting: "Przygotowujemy weryfikację. Ta strona odświeży się sama.",
    codeRejected: "Nieprawidłowy kod.",
    codeSent: "Wysłano nowy kod.",
    invalidCode: "Kod musi mieć dokładnie sześć cyfr.",
    stale: "Ten krok zmienił się w międzyczasie. Spróbuj ponownie.",
    notReady: "Weryfikacja nie jest jeszcze gotowa. Proszę czekać.",
    doneTitle: "Weryfikacja zakończona",
    endedTitle: "Ta sesja została zakończona",
    closeHint: "Możesz zamknąć to okno.",
    decision: "Decyzja",
    accepted: "Zaakceptowano",
    rejected: "Odrzucono",
    returnLink: "Wróć do serwisu",
  },
  it: {
    emulated: "Player emulato (flowsmith)",
    flow: "Flusso",
    version: "Versione",
    subject: "Riferimento",
    codeLabel: "Inserisci il codice a sei cifre",
    submitCode: "Verifica",
    resendCode: "Invia un nuovo codice",
    attemptsLeft: "Tentativi rimasti",
    testCode: "Codice di prova dell'emulatore",
    shortcuts: "Scorciatoie di test",
    accept: "Accetta",
    reject: "Rifiuta",
    waiting: "Preparazione della verifica. Questa pagina si aggiorna da sola.",
    codeRejected: "Codice errato.",
    codeSent: "È stato inviato un nuovo codice.",
    invalidCode: "Il codice deve avere esattamente sei cifre.",
    stale: "Questo passaggio è cambiato nel frattempo. Riprova.",
    notReady: "La verifica non è ancora pronta. Attendi.",
    doneTitle: "Verifica completata",
    endedTitle: "Questa sessione è terminata",
    closeHint: "Puoi chiudere questa finestra.",
    decision: "Decisione",
    accepted: "Accettata",
    rejected: "Rifiutata",
    returnLink: "Torna al sito",
  },
  es: {
    emulated: "Reproductor emulado (flowsmith)",
    flow: "Flujo",
    version: "Versión",
    subject: "Referencia",
    codeLabel: "Introduce el código de seis dígitos",
    submitCode: "Verificar",
    resendCode: "Enviar un código nuevo",
    attemptsLeft: "Intentos restantes",
    testCode: "Código de prueba del emulador",
    shortcuts: "Atajos de prueba",
    accept: "Aceptar",
    reject: "Rechazar",
    waiting: "Preparando la verificación. Esta página se actualiza sola.",
    codeRejected: "Código incorrecto.",
    codeSent: "Se ha enviado un código nuevo.",
    invalidCode: "El código debe tener exactamente seis dígitos.",
    stale: "Este paso ha cambiado mientras tanto. Inténtalo de nuevo.",
    notReady: "La verificación aún no está lista. Espera un momento.",
    doneTitle: "Verificación completada",
    endedTitle: "Esta sesión ha terminado",
    closeHint: "Puedes cerrar esta ventana.",
    decision: "Decisión",
    accepted: "Aceptada",
    rejected: "Rechazada",
    returnLink: "Volver al sitio",
  },
};

/** The session's locale (metadata.locale, validated at creation), `en` when absent. */
export function localeOf(requested: string | undefined): Locale {
  return (SERVICE_LOCALES as readonly string[]).includes(requested ?? "") ? (requested as Locale) : "en";
}
